package httpapi

func (s *Server) teamRoutes() {}
