package card

import "testing"

func TestSizeShowsBytesKilobytesAndMegabytes(t *testing.T) {
	for n, want := range map[int]string{0: "0 B", 1023: "1023 B", 1024: "1.0 KB", 48230: "47.1 KB", 1 << 20: "1.0 MB", 1258291: "1.2 MB"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d): want %q, got %q", n, want, got)
		}
	}
}
