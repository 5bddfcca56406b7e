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
