package httpapi

func (s *Server) samlRoutes() {}
