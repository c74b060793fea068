package httpapi

func (s *Server) agentRoutes() {}
