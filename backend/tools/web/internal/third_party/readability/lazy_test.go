package readability

import (
	"regexp"
	"testing"
)

// A lazy expression that did not compile would panic on a page that
// first needs it, not at start: each must compile to what MustCompile
// made of it at initialisation.
func TestEveryExpressionCompiles(t *testing.T) {
	if len(expressions) != 24 {
		t.Fatalf("want the parser's 24 expressions, got %d", len(expressions))
	}
	for _, l := range expressions {
		want, err := regexp.Compile(l.expr)
		if err != nil {
			t.Errorf("%q: %v", l.expr, err)
			continue
		}
		if got := l.get(); got.String() != want.String() || l.get() != got {
			t.Errorf("%q: want one compiled expression of its own, got %v", l.expr, got)
		}
	}
}
