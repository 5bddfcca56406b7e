package agent_test

import (
	"bytes"
	"context"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/fs"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// imageSession is an agent on model with the real read tool, an image
// store beside its log, and shot.png (40×30) in its workspace.
type imageSession struct {
	srv   *llmtest.Server
	agent *agent.Agent
	log   *session.Log
	cwd   string
	store string
}

func newImageSession(t *testing.T, model string, script ...llmtest.Response) *imageSession {
	t.Helper()
	srv := llmtest.New(t, script...)
	cwd, dir := t.TempDir(), t.TempDir()
	var b bytes.Buffer
	png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 40, 30)))
	if err := os.WriteFile(filepath.Join(cwd, "shot.png"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "s.jsonl")
	log, err := session.Create(path, session.Header{Version: 1, ID: "img", Created: time.Unix(0, 0).UTC(), Cwd: cwd, Model: model})
	if err != nil {
		t.Fatal(err)
	}
	s := &imageSession{srv: srv, log: log, cwd: cwd, store: session.ImageDir(path)}
	s.agent = agent.New(agent.Config{
		Log: log, Provider: llm.NewClient(llm.ClientConfig{BaseURL: srv.URL(), APIKey: "k"}),
		Tools: tools.NewRegistry(fs.New(fs.NewTracker())...), Retry: llm.DefaultRetryPolicy(nil),
		Cwd: cwd, SpillDir: t.TempDir(), Images: images.NewStore(s.store),
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	t.Cleanup(func() { s.agent.Close(); log.Close() })
	return s
}

// readShotOn has a session on model read shot.png with the read tool; it
// is the messages of the request that carried the read's result.
func readShotOn(t *testing.T, model string) []llmtest.Message {
	t.Helper()
	s := newImageSession(t, model, llmtest.Reply(llmtest.ToolCall("r1", "read", `{"file_path":"shot.png"}`, 1)),
		llmtest.ReplyText("a blank picture"))
	s.agent.Send("what is in shot.png?")
	testkit.Settle(t, s.agent)
	s.srv.AssertConsumed(t)
	return s.srv.Requests()[1].Messages
}

func TestReadOfAPNGSendsAnImagePartToAModelThatTakesImages(t *testing.T) {
	msgs := readShotOn(t, "deepseek-flash")
	last := msgs[len(msgs)-1]
	tool := msgs[len(msgs)-2]
	if tool.Role != "tool" || !strings.Contains(tool.Content, "Image file") || !strings.Contains(tool.Content, "40×30") {
		t.Fatalf("want the read result to describe the image, got %+v", tool)
	}
	if last.Role != "user" || len(last.Images) != 1 || !strings.HasPrefix(last.Images[0], "data:image/png;base64,iVBOR") {
		t.Fatalf("want the image sent as an image_url data part after the tool result, got %+v", last)
	}
}

func TestReadOfAnImageIsRefusedForAModelWithoutImages(t *testing.T) {
	msgs := readShotOn(t, "deepseek-v4-pro")
	tool := msgs[len(msgs)-1]
	if tool.Role != "tool" || !strings.Contains(tool.Content, "the model deepseek-v4-pro does not accept images") {
		t.Fatalf("want a refusal the model can act on, got %+v", tool)
	}
	for _, m := range msgs {
		if len(m.Images) > 0 {
			t.Fatalf("want no image sent to deepseek-v4-pro, got one in %+v", m)
		}
	}
}

func TestAMentionedImageIsStoredOnceForTwoUses(t *testing.T) {
	s := newImageSession(t, "deepseek-flash", llmtest.ReplyText("one"), llmtest.ReplyText("two"))
	s.agent.Send("look at @shot.png")
	testkit.Settle(t, s.agent)
	s.agent.Send("and again @shot.png")
	testkit.Settle(t, s.agent)
	s.srv.AssertConsumed(t)
	var refs []session.ImageRef
	for _, e := range s.log.Events() {
		if m, ok := e.Data.(session.UserMessage); ok {
			refs = append(refs, m.Images...)
		}
	}
	if len(refs) != 2 || refs[0].Hash != refs[1].Hash || refs[0].Name != "shot.png" || refs[0].Width != 40 {
		t.Fatalf("want both prompts to reference the same stored shot.png, got %+v", refs)
	}
	entries, _ := os.ReadDir(s.store)
	if len(entries) != 1 {
		t.Fatalf("want one stored copy, got %d files", len(entries))
	}
	second := s.srv.Requests()[1].Messages
	n := 0
	for _, m := range second {
		n += len(m.Images)
	}
	if n != 2 {
		t.Fatalf("want both images in the history of the second request, got %d", n)
	}
}

func TestAnImageForAModelWithoutImagesEndsTheTurnBeforeARequest(t *testing.T) {
	s := newImageSession(t, "deepseek-v4-pro")
	s.agent.Send("look at @shot.png")
	testkit.Settle(t, s.agent)
	if n := len(s.srv.Requests()); n != 0 {
		t.Fatalf("want no model request, got %d", n)
	}
	evs := s.log.Events()
	end, ok := evs[len(evs)-1].Data.(session.TurnEnd)
	if !ok || end.Reason != session.StopError || !strings.Contains(end.Error.Message, "does not accept images") || !strings.Contains(end.Error.Message, "/model") {
		t.Fatalf("want the turn to end saying what to do, got %+v", evs[len(evs)-1].Data)
	}
}

func TestImagesInHistoryBecomeNotesAfterSwitchingToAModelWithoutImages(t *testing.T) {
	s := newImageSession(t, "deepseek-flash", llmtest.ReplyText("one"), llmtest.ReplyText("two"))
	s.agent.Send("look at @shot.png")
	testkit.Settle(t, s.agent)
	if err := s.agent.SetModel("deepseek-v4-pro", llm.EffortHigh); err != nil {
		t.Fatal(err)
	}
	s.agent.Send("now think hard")
	testkit.Settle(t, s.agent)
	s.srv.AssertConsumed(t)
	for _, m := range s.srv.Requests()[1].Messages {
		if len(m.Images) > 0 {
			t.Fatalf("want no image sent after switching to deepseek-v4-pro, got %+v", m)
		}
		if strings.Contains(m.Content, "look at") && !strings.Contains(m.Content, "[image shot.png not sent: the model deepseek-v4-pro does not accept images]") {
			t.Fatalf("want a note where the image was, got %q", m.Content)
		}
	}
}

// TestMentionedFilesAreReadIntoThePrompt sends the prompt of Claude
// Code's recorded mentions (testdata/claudecode/record.py mentions) in a
// workspace of its files and wants what Claude Code attached there read
// into the request (by the read tool, with a #L suffix's lines), and
// nothing of a file that is not there. A mentioned file counts as read:
// the model's edit of it needs no read.
func TestMentionedFilesAreReadIntoThePrompt(t *testing.T) {
	var cases []struct {
		Name, Text, Path string
		Folder, Absent   bool
		Attached         *struct{ Offset, Limit int }
	}
	testkit.ReadJSON(t, "../../testdata/claudecode/cc-2.1.332.mentions.json", &cases)
	s := newImageSession(t, "deepseek-flash",
		llmtest.Reply(llmtest.ToolCall("e1", "edit", `{"file_path":"m01.txt","old_string":"plain line 1","new_string":"edited"}`, 1)),
		llmtest.ReplyText("Done."))
	files := map[string]string{}
	var texts []string
	for _, c := range cases {
		texts = append(texts, c.Text)
		switch {
		case c.Absent:
		case c.Folder:
			files[filepath.Join(c.Path, "inner.go")] = "package inner\n"
		default:
			var b strings.Builder
			for i := 1; i <= 8; i++ {
				fmt.Fprintf(&b, "%s line %d\n", c.Name, i)
			}
			files[c.Path] = b.String()
		}
	}
	testkit.WriteTree(t, s.cwd, files)
	s.agent.Send(strings.Join(texts, " ; "))
	testkit.Settle(t, s.agent)
	s.srv.AssertConsumed(t)
	var context string
	for _, m := range s.srv.Requests()[0].Messages {
		if strings.HasPrefix(m.Content, "Mentioned with @ and read here") {
			context = m.Content
		}
	}
	if context == "" {
		t.Fatalf("want the mentioned files in the request, got %+v", s.srv.Requests()[0].Messages)
	}
	// Named differences: tack reads (@file) and @"quoted" mentions, and
	// lists no folder (its entries would show names a deny rule hides).
	differs := map[string]bool{"bracket": true, "quoted": true, "folder": false, "folder-bare": false}
	for _, c := range cases {
		head := "read " + c.Path + "\n"
		attached, named := differs[c.Name]
		if !named {
			attached = c.Attached != nil
		}
		if got := strings.Contains(context, head); got != attached {
			t.Errorf("%s: %s: attached %v, want %v (Claude Code: %v)\n%s", c.Name, c.Text, got, attached, c.Attached != nil, context)
		}
		if c.Attached != nil && c.Attached.Offset > 0 {
			first, after := fmt.Sprintf("%s line %d", c.Name, c.Attached.Offset), fmt.Sprintf("%s line %d", c.Name, c.Attached.Offset+c.Attached.Limit)
			if !strings.Contains(context, first) || strings.Contains(context, after) {
				t.Errorf("%s: want %d lines from line %d, got\n%s", c.Name, c.Attached.Limit, c.Attached.Offset, context)
			}
		}
	}
	if b, _ := os.ReadFile(filepath.Join(s.cwd, "m01.txt")); !strings.HasPrefix(string(b), "edited\n") {
		t.Errorf("want the mentioned file taken as read by edit, got m01.txt %q and the result %q", b, s.srv.Requests()[1].ToolResult("e1"))
	}
}

// A steering message's mentions are read into the step it joins, as a
// prompt's are.
func TestSteeringReadsWhatItMentions(t *testing.T) {
	s := newImageSession(t, "deepseek-flash", llmtest.Reply(llmtest.ToolCall("call_1", "block", `{}`, 1)), llmtest.ReplyText("Done."))
	block, started, release := blockingTool()
	s.agent.Tools().Add(block)
	testkit.WriteFile(t, filepath.Join(s.cwd, "notes.txt"), "buy milk\n")
	s.agent.Send("start")
	<-started
	s.agent.Steer("also see @notes.txt")
	close(release)
	testkit.Settle(t, s.agent)
	msgs := s.srv.Requests()[1].Messages
	if last := msgs[len(msgs)-1]; !strings.HasPrefix(last.Content, "Mentioned with @ and read here, so there is no need to read again: notes.txt\n") || !strings.Contains(last.Content, "buy milk") {
		t.Fatalf("want the steering's mention read after it, got %+v", msgs[len(msgs)-2:])
	}
}
