package httpapi

func (s *Server) inviteRoutes() {}
