package httpapi

func (s *Server) memberRoutes() {}
