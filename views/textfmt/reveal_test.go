package textfmt

import "testing"

func TestRevealEscapesWhatReadsDifferentlyThanItRuns(t *testing.T) {
	cases := []struct{ in, want string }{
		{"ls -la", "ls -la"},
		// "rm -rf ~ #" shown as a harmless comment by an override.
		{"echo hi # \u202e~ fr- mr\u202c", `echo hi # \u202e~ fr- mr\u202c`},
		{"a\u2066b\u2069c\u200bd\u200fe\ufeff", `a\u2066b\u2069c\u200bd\u200fe\ufeff`},
		{"x\U000e0041y", `x\U000e0041y`},
		{"tab\tand\x1b[31mred", `tab and\x1b[31mred`},
		{"שלום world", "שלום world"},
	}
	for _, c := range cases {
		if got := Reveal(c.in); got != c.want {
			t.Errorf("Reveal(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := RevealLine("a\nb\u202e"); got != `a\x0ab\u202e` {
		t.Errorf("RevealLine: got %q", got)
	}
}
