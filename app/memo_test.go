package app

import (
	"slices"
	"testing"
)

func TestMemoDrawsOncePerKey(t *testing.T) {
	var m memo[int]
	draws := 0
	draw := func(row string) func() []string {
		return func() []string { draws++; return []string{row} }
	}
	first := m.get(1, draw("one"))
	_ = append(first, "appended")
	again := m.get(1, draw("ignored"))
	changed := m.get(2, draw("two"))
	if !slices.Equal(again, []string{"one"}) || !slices.Equal(changed, []string{"two"}) || draws != 2 {
		t.Errorf("want one draw per key and the rows untouched by appends, got %q then %q after %d draws", again, changed, draws)
	}
}
