package agenticdriver

// Session handle helpers (hand-written methods on the generated SessionInfo).

// SessionHandle returns the handle {id, revision}: exactly the two fields a session run sends.
//
//	request.Session = agenticdriver.NewOptSessionHandle(info.SessionHandle())
func (s *SessionInfo) SessionHandle() SessionHandle {
	return SessionHandle{ID: s.ID, Revision: s.Revision}
}
