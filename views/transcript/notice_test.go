package transcript

import (
	"strings"
	"testing"
)

func TestSettingNoticeRewritesItsLastValueInPlace(t *testing.T) {
	tr := New(wide)
	tr.AddNotice("Hello.", NoticeInfo)
	for _, mode := range []string{"plan", "read-only", "ask"} {
		tr.AddSettingNotice("permission", "Permission mode: "+mode, NoticeDim)
	}
	got := plain(all(tr))
	if n := strings.Count(got, "Permission mode"); n != 1 || !strings.Contains(got, "Permission mode: ask") {
		t.Fatalf("want one notice with the mode reached, got\n%s", got)
	}
	if tr.Blocks() != 2 {
		t.Fatalf("want the greeting and one setting notice, got %d blocks", tr.Blocks())
	}
	tr.AddSettingNotice("cards", "Tool cards hidden.", NoticeDim)
	tr.AddSettingNotice("permission", "Permission mode: auto", NoticeDim)
	if got := plain(all(tr)); !strings.Contains(got, "Permission mode: ask") || !strings.Contains(got, "Permission mode: auto") {
		t.Fatalf("want a new notice once something came after the last one, got\n%s", got)
	}
}

// A command's "Key   value" rows wrap under their value, not at the
// margin, so the keys stay a column of their own.
func TestNoticeRowsWrapUnderTheirValue(t *testing.T) {
	tr := New(Settings{Width: 50})
	tr.AddNotice("Permissions and sandbox\nMode       auto · sandboxed — commands run in the sandbox and workspace edits run\n"+
		"  an indented line that is long enough to wrap at fifty columns", NoticeInfo)
	got := plain(all(tr))
	for _, want := range []string{
		"Mode       auto · sandboxed — commands run in the\n           sandbox and workspace edits run",
		"  an indented line that is long enough to wrap at\n  fifty columns",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("want\n%s\nin\n%s", want, got)
		}
	}
}
