package main

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

func TestPrintImageFlagSendsTheImageWithTheTask(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 12, 9)))
	if err := os.WriteFile(filepath.Join(dir, "shot.png"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, llmtest.ReplyText("A black rectangle."))
	r := startTackIn(t, srv, t.TempDir(), dir, "-p", "what is this?", "--image", "shot.png", "--model", "deepseek-flash")
	r.closeStdin()
	r.wantExit(0)
	msgs := srv.Requests()[0].Messages
	last := msgs[len(msgs)-1]
	if !strings.HasPrefix(last.Content, "what is this?") || len(last.Images) != 1 || !strings.HasPrefix(last.Images[0], "data:image/png;base64,") {
		t.Fatalf("want the task with the image part, got %+v", last)
	}
}

func TestPrintImageFlagRefusesWhatIsNoImage(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.png"), []byte("text"), 0o644)
	r := startTackIn(t, nil, t.TempDir(), dir, "-p", "look", "--image", "notes.png")
	r.closeStdin()
	if code := r.exitCode(); code != 2 || !strings.Contains(r.stderr.String(), "--image notes.png: not a PNG, JPEG, GIF or WebP image") {
		t.Fatalf("want exit 2 naming the file, got %d (stderr %q)", code, r.stderr.String())
	}
}

func TestPrintCostCountsASubagentsSteps(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("t1", "task", `{"description":"Look","prompt":"look around"}`, 1), llmtest.Usage(0, 1_000_000, 0, 0)),
		llmtest.Reply(llmtest.Text("nothing here", 0), llmtest.Usage(0, 3_000_000, 0, 0)),
		llmtest.Reply(llmtest.Text("done", 0), llmtest.Usage(0, 0, 0, 0)))
	r := startTack(t, srv, "-p", "look", "--output-format", "json", "--model", "deepseek-v4-pro")
	r.closeStdin()
	if code := r.exitCode(); code != 0 {
		t.Fatalf("want exit 0, got %d (stderr %q)", code, r.stderr.String())
	}
	var rec printRecord
	if err := json.Unmarshal([]byte(r.stdout.String()), &rec); err != nil {
		t.Fatal(err)
	}
	// Uncached tokens on deepseek-v4-pro, a million the parent's and three
	// the child's: the parent's alone cost at most 1.32 (peak), all four
	// at least 2.64 (off-peak).
	if rec.TotalCostUSD == nil || *rec.TotalCostUSD < 2 {
		t.Fatalf("want the child's step priced into total_cost_usd, got %v", rec.TotalCostUSD)
	}
}
