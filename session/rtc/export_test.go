package rtc

// KillPeer closes the current peer connection from the client side, as a
// lost network would end it: no LEAVE, no close code.
func KillPeer(d *Dialer) {
	d.mu.Lock()
	o := d.peer
	d.mu.Unlock()
	if o != nil {
		_ = o.pc.Close()
	}
}
