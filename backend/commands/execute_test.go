package commands

import (
	"context"
	"slices"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

func TestExecuteRecordsLifecycleEvents(t *testing.T) {
	tests := []struct {
		desc      string
		cmd       Command
		running   bool
		line      string
		wantInput string
		outcome   string
		text      string
	}{
		{
			desc: "success records the raw input", line: "/plan  do it",
			cmd:       Command{Name: "plan", Handler: echo("planned")},
			wantInput: "  do it", outcome: "success", text: "planned",
		},
		{
			desc: "handler error", line: "/plan",
			cmd:     Command{Name: "plan", Handler: func(context.Context, Invocation) Result { return Fail("no plan") }},
			outcome: "error", text: "no plan",
		},
		{
			desc: "result without a kind counts as success", line: "/plan",
			cmd:     Command{Name: "plan", Handler: func(context.Context, Invocation) Result { return Result{Text: "ok"} }},
			outcome: "success", text: "ok",
		},
		{
			desc: "panicking handler settles as an error", line: "/plan x",
			cmd:       Command{Name: "plan", Handler: func(context.Context, Invocation) Result { panic("boom") }},
			wantInput: " x", outcome: "error", text: "Command failed: boom",
		},
		{
			desc: "OmitInput keeps the input out of command/run", line: "/plan secret",
			cmd:     Command{Name: "plan", OmitInput: true, Handler: echo("ok")},
			outcome: "success", text: "ok",
		},
		{
			desc: "idle-only command refuses while running", line: "/resume abc", running: true,
			cmd:       Command{Name: "resume", Handler: echo("resumed")},
			wantInput: " abc", outcome: "error", text: "/resume requires the current turn to finish or be cancelled first.",
		},
		{
			desc: "a command's own refusal text", line: "/reload", running: true,
			cmd:     Command{Name: "reload", BusyText: "/reload requires an idle agent (status: running).", Handler: echo("x")},
			outcome: "error", text: "/reload requires an idle agent (status: running).",
		},
		{
			desc: "WhileRunning command runs while running", line: "/status", running: true,
			cmd:     Command{Name: "status", WhileRunning: true, Handler: echo("card")},
			outcome: "success", text: "card",
		},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			reg := New(Options{NewID: sequentialIDs()})
			must(t, reg.Register(tt.cmd))
			a := newFakeAgent("s1")
			if tt.running {
				a.status = agent.StatusRunning
			}
			exec, ok := reg.Execute(context.Background(), a, tt.line, nil)
			if !ok {
				t.Fatalf("want %q executed, got not a command", tt.line)
			}
			run, done := requirePair(t, a)
			if run.Name != tt.cmd.Name || run.Input != tt.wantInput {
				t.Errorf("command/run: want name %q input %q, got %q %q", tt.cmd.Name, tt.wantInput, run.Name, run.Input)
			}
			if done.Outcome != tt.outcome || done.Text != tt.text {
				t.Errorf("command/done: want %s %q, got %s %q", tt.outcome, tt.text, done.Outcome, done.Text)
			}
			if exec.ID != run.ID || string(exec.Result.Kind) != tt.outcome || exec.Result.Text != tt.text {
				t.Errorf("execution: want id %s %s %q, got %+v", run.ID, tt.outcome, tt.text, exec)
			}
		})
	}
}

func TestExecuteRecordsRunBeforeTheHandler(t *testing.T) {
	reg := New(Options{NewID: sequentialIDs()})
	a := newFakeAgent("s1")
	var seen []session.Event
	must(t, reg.Register(Command{Name: "look", Handler: func(context.Context, Invocation) Result {
		seen = a.logged()
		return Succeed("")
	}}))
	reg.Execute(context.Background(), a, "/look", nil)
	if len(seen) != 1 || seen[0].Type != "command/run" {
		t.Fatalf("handler saw the log: want only command/run, got %+v", seen)
	}
}

func TestExecuteRejectsNonCommandsWithoutLogging(t *testing.T) {
	reg := New(Options{})
	must(t, reg.Register(Command{Name: "plan", Handler: echo("x")}))
	for _, line := range []string{"/Plan", "/ plan", " /plan", "/", "/plan:x", "/unknown", "hello"} {
		a := newFakeAgent("s1")
		if exec, ok := reg.Execute(context.Background(), a, line, nil); ok {
			t.Errorf("Execute(%q): want not a command, got %+v", line, exec)
		}
		if n := len(a.logged()); n != 0 {
			t.Errorf("Execute(%q): want nothing logged, got %d events", line, n)
		}
	}
}

func TestExecuteDoesNotRunTheHandlerWhenTheLogFails(t *testing.T) {
	reg := New(Options{})
	ran := false
	must(t, reg.Register(Command{Name: "plan", Handler: func(context.Context, Invocation) Result { ran = true; return Succeed("") }}))
	a := newFakeAgent("s1")
	a.failLog = true
	exec, ok := reg.Execute(context.Background(), a, "/plan", nil)
	if !ok || exec.Result.Kind != Error || ran {
		t.Fatalf("want an error result and no handler run, got %+v (handler ran: %v)", exec, ran)
	}
}

func TestExecuteHonoursCancellation(t *testing.T) {
	t.Run("cancelled before the handler runs", func(t *testing.T) {
		reg := New(Options{})
		ran := false
		must(t, reg.Register(Command{Name: "slow", Handler: func(context.Context, Invocation) Result { ran = true; return Succeed("") }}))
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		a := newFakeAgent("s1")
		exec, _ := reg.Execute(ctx, a, "/slow", nil)
		_, done := requirePair(t, a)
		if ran || exec.Result.Kind != Error || done.Outcome != "error" || done.Text != "command cancelled" {
			t.Errorf("want an unrun handler settled as error %q, got %+v (ran %v)", "command cancelled", done, ran)
		}
	})
	t.Run("cancelled while a handler ignores ctx", func(t *testing.T) {
		reg := New(Options{})
		started, release := make(chan struct{}), make(chan struct{})
		defer close(release)
		must(t, reg.Register(Command{Name: "stuck", Handler: func(context.Context, Invocation) Result {
			close(started)
			<-release
			return Succeed("late")
		}}))
		ctx, cancel := context.WithCancel(context.Background())
		go func() { <-started; cancel() }()
		a := newFakeAgent("s1")
		exec, _ := reg.Execute(ctx, a, "/stuck", nil)
		_, done := requirePair(t, a)
		if exec.Result.Text != "command cancelled" || done.Outcome != "error" {
			t.Errorf("want the executor to stop waiting and settle as an error, got %+v", done)
		}
	})
	t.Run("a handler that honours ctx", func(t *testing.T) {
		reg := New(Options{})
		must(t, reg.Register(Command{Name: "wait", Handler: func(ctx context.Context, _ Invocation) Result {
			<-ctx.Done()
			return Succeed("stopped")
		}}))
		ctx, cancel := context.WithCancel(context.Background())
		a := newFakeAgent("s1")
		go cancel()
		reg.Execute(ctx, a, "/wait", nil)
		if _, done := requirePair(t, a); done.Outcome != "error" {
			t.Errorf("want a cancelled command settled as an error, got %+v", done)
		}
	})
}

func TestExecuteAdmitsAttachmentsAsDeclared(t *testing.T) {
	png := Attachment{Kind: AttachImage, Name: "a.png", MIME: "image/png", Data: []byte{1}}
	jpg := Attachment{Kind: AttachImage, Name: "b.jpg", MIME: "image/jpeg", Data: []byte{2}}
	doc := Attachment{Kind: AttachFile, Name: "doc.txt", Receipt: "r-1"}
	stray := Attachment{Kind: AttachFile, Name: "x.txt", Receipt: "r-404"}
	known := func(sessionID, receipt string) bool { return sessionID == "s1" && receipt == "r-1" }
	tests := []struct {
		desc     string
		spec     AttachmentSpec
		receipts Receipts
		atts     []Attachment
		refusal  string
	}{
		{desc: "none sent, none declared", atts: nil},
		{desc: "undeclared attachments", atts: []Attachment{png}, refusal: "/cmd does not accept attachments."},
		{desc: "images to a files-only command", spec: AttachmentSpec{Files: true}, receipts: known, atts: []Attachment{png}, refusal: "/cmd does not accept images."},
		{desc: "files to an images-only command", spec: AttachmentSpec{Images: true}, atts: []Attachment{doc}, refusal: "/cmd does not accept files."},
		{desc: "no receipt store", spec: AttachmentSpec{Files: true}, atts: []Attachment{doc}, refusal: `Unknown file receipt "r-1" for "doc.txt"; attach the file again.`},
		{desc: "unknown receipt", spec: AttachmentSpec{Files: true}, receipts: known, atts: []Attachment{doc, stray}, refusal: `Unknown file receipt "r-404" for "x.txt"; attach the file again.`},
		{desc: "over-limit image batch", spec: AttachmentSpec{Images: true, MaxImages: 1}, atts: []Attachment{png, jpg}, refusal: "Too many images: 2 attached, /cmd accepts at most 1."},
		{desc: "not an image", spec: AttachmentSpec{Images: true}, atts: []Attachment{{Kind: AttachImage, Name: "t.txt", MIME: "text/plain", Data: []byte{1}}}, refusal: `Attachment "t.txt" is not an image; attach an image file.`},
		{desc: "mixed batch in the user's order", spec: AttachmentSpec{Images: true, Files: true, MaxImages: 2}, receipts: known, atts: []Attachment{jpg, doc, png}},
	}
	for _, tt := range tests {
		t.Run(tt.desc, func(t *testing.T) {
			reg := New(Options{Receipts: tt.receipts})
			var got []Attachment
			called := false
			must(t, reg.Register(Command{Name: "cmd", Input: Input{Attachments: tt.spec}, Handler: func(_ context.Context, inv Invocation) Result {
				called, got = true, inv.Attachments
				return Succeed("ok")
			}}))
			a := newFakeAgent("s1")
			exec, _ := reg.Execute(context.Background(), a, "/cmd", tt.atts)
			_, done := requirePair(t, a)
			if tt.refusal != "" {
				if called || done.Outcome != "error" || done.Text != tt.refusal || exec.Result.Text != tt.refusal {
					t.Fatalf("want refusal %q before the handler, got %+v (handler called %v)", tt.refusal, done, called)
				}
				return
			}
			if !called || done.Outcome != "success" {
				t.Fatalf("want the handler to run, got %+v", done)
			}
			var names, want []string
			for _, a := range got {
				names = append(names, a.Name)
			}
			for _, a := range tt.atts {
				want = append(want, a.Name)
			}
			if !slices.Equal(names, want) {
				t.Errorf("attachments reaching the handler: want %v, got %v", want, names)
			}
		})
	}
}
