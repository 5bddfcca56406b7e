package app

// memo keeps the last rows drawn for a key: the status row and the banner
// are drawn for every frame, and most frames (a typed key, a streamed
// token) change what neither shows. Rows returned are the memo's; a caller
// appending to them gets a copy.
type memo[K comparable] struct {
	key  K
	rows []string
	ok   bool
}

// get returns the rows drawn for key, drawing them with draw unless they
// were drawn last for the same key.
func (m *memo[K]) get(key K, draw func() []string) []string {
	if !m.ok || m.key != key {
		m.key, m.rows, m.ok = key, draw(), true
	}
	return m.rows[:len(m.rows):len(m.rows)]
}
