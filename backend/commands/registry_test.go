package commands

import (
	"context"
	"strings"
	"testing"
)

func echo(text string) Handler {
	return func(context.Context, Invocation) Result { return Succeed(text) }
}

func TestParseFollowsCommandSyntax(t *testing.T) {
	tests := []struct {
		line, name, raw string
		ok              bool
	}{
		{"/plan", "plan", "", true},
		{"/plan x", "plan", " x", true},
		{"/plan  x", "plan", "  x", true},
		{"/plan\tx y", "plan", "\tx y", true},
		{"/plan\nline two", "plan", "\nline two", true},
		{"/plan ", "plan", " ", true},
		{"/a_b-9", "a_b-9", "", true},
		{"/plan\u00a0x", "plan", "\u00a0x", true},
		{"/Plan", "", "", false},
		{"/plAn", "", "", false},
		{"/ plan", "", "", false},
		{" /plan", "", "", false},
		{"/", "", "", false},
		{"", "", "", false},
		{"plan", "", "", false},
		{"/plan:x", "plan:x", "", true},
		{"/frontend:review 12", "frontend:review", " 12", true},
		{"/plan/x", "", "", false},
		{"//plan", "", "", false},
		{"/plané", "", "", false},
		{"/skill:research.paper.draft topic", "skill:research.paper.draft", " topic", true},
		{"/tmp.", "", "", false},
		{"/e.g. this", "", "", false},
		{"/a..b", "", "", false},
		{"/.a", "", "", false},
		{"/a.:b", "", "", false},
	}
	for _, tt := range tests {
		name, raw, ok := Parse(tt.line)
		if name != tt.name || raw != tt.raw || ok != tt.ok {
			t.Errorf("Parse(%q): want (%q, %q, %v), got (%q, %q, %v)", tt.line, tt.name, tt.raw, tt.ok, name, raw, ok)
		}
	}
}

func TestUnknownMessageNamesTheFirstWordAndWhatToDo(t *testing.T) {
	known := []Command{{Name: "model"}, {Name: "plan"}, {Name: "permissions"}, {Name: "status"}, {Name: "resume"}, {Name: "rewind"},
		{Name: "redo"}, {Name: "undo"}, {Name: "frontend:review"}}
	tests := map[string]string{
		"/x":               "Unknown command: /x; /help lists the commands",
		"/nope a b":        "Unknown command: /nope; /help lists the commands",
		"/Plan":            "Unknown command: /Plan; did you mean /plan? /help lists the commands",
		"/plna":            "Unknown command: /plna; did you mean /plan? /help lists the commands",
		"/modle gpt":       "Unknown command: /modle; did you mean /model? /help lists the commands",
		"/permisions":      "Unknown command: /permisions; did you mean /permissions? /help lists the commands",
		"/perm":            "Unknown command: /perm; did you mean /permissions? /help lists the commands",
		"/re":              "Unknown command: /re; /help lists the commands",
		"/frontend:reveiw": "Unknown command: /frontend:reveiw; did you mean /frontend:review? /help lists the commands",
		"/cost":            "Unknown command: /cost; /status shows the session's tokens, cost and context",
		"/usage":           "Unknown command: /usage; /status shows the session's tokens, cost and context",
	}
	for line, want := range tests {
		if got := UnknownMessage(line, known); got != want {
			t.Errorf("UnknownMessage(%q):\n want %q\n got  %q", line, want, got)
		}
	}
}

func TestRegisterValidatesNamesAndRejectsDuplicatesInOneScope(t *testing.T) {
	reg := New(Options{})
	tests := []struct {
		desc  string
		scope string
		cmd   Command
		ok    bool
	}{
		{"valid global", "", Command{Name: "plan", Handler: echo("g")}, true},
		{"duplicate global", "", Command{Name: "plan", Handler: echo("g2")}, false},
		{"same name in an agent scope", "a", Command{Name: "plan", Handler: echo("a")}, true},
		{"duplicate in the agent scope", "a", Command{Name: "plan", Handler: echo("a2")}, false},
		{"same name in another agent scope", "b", Command{Name: "plan", Handler: echo("b")}, true},
		{"uppercase", "", Command{Name: "Plan", Handler: echo("x")}, false},
		{"empty", "", Command{Name: "", Handler: echo("x")}, false},
		{"space", "", Command{Name: "a b", Handler: echo("x")}, false},
		{"namespaced", "", Command{Name: "skill:x", Handler: echo("x")}, true},
		{"leading colon", "", Command{Name: ":x", Handler: echo("x")}, false},
		{"trailing colon", "", Command{Name: "x:", Handler: echo("x")}, false},
		{"no handler", "", Command{Name: "nohandler"}, false},
	}
	for _, tt := range tests {
		var err error
		if tt.scope == "" {
			err = reg.Register(tt.cmd)
		} else {
			err = reg.RegisterFor(tt.scope, tt.cmd)
		}
		if (err == nil) != tt.ok {
			t.Errorf("%s: want ok=%v, got err=%v", tt.desc, tt.ok, err)
		}
	}
	if err := reg.RegisterFor("", Command{Name: "x", Handler: echo("x")}); err == nil {
		t.Error("RegisterFor with an empty scope: want an error, got nil")
	}
}

func TestAgentScopedCommandShadowsForItsAgentOnly(t *testing.T) {
	reg := New(Options{NewID: sequentialIDs()})
	must(t, reg.Register(Command{Name: "plan", Description: "global plan", Handler: echo("global"), WhileRunning: true}))
	must(t, reg.Register(Command{Name: "help", Description: "help", Handler: echo("help")}))
	must(t, reg.RegisterFor("a", Command{Name: "plan", Description: "a's plan", Handler: echo("scoped")}))
	must(t, reg.RegisterFor("a", Command{Name: "only-a", Handler: echo("only")}))

	tests := []struct {
		scope, desc string
		names       []string
		runs        string
	}{
		{"a", "a's plan", []string{"help", "only-a", "plan"}, "scoped"},
		{"b", "global plan", []string{"help", "plan"}, "global"},
	}
	for _, tt := range tests {
		cmd, ok := reg.Find(tt.scope, "plan")
		if !ok || cmd.Description != tt.desc {
			t.Errorf("Find(%q, plan): want %q, got %q (found %v)", tt.scope, tt.desc, cmd.Description, ok)
		}
		var names []string
		for _, c := range reg.List(tt.scope) {
			names = append(names, c.Name)
		}
		if strings.Join(names, ",") != strings.Join(tt.names, ",") {
			t.Errorf("List(%q): want %v, got %v", tt.scope, tt.names, names)
		}
		exec, ok := reg.Execute(context.Background(), newFakeAgent(tt.scope), "/plan", nil)
		if !ok || exec.Result.Text != tt.runs {
			t.Errorf("agent %q runs /plan: want %q, got %q (ok %v)", tt.scope, tt.runs, exec.Result.Text, ok)
		}
	}
	if _, ok := reg.Execute(context.Background(), newFakeAgent("b"), "/only-a", nil); ok {
		t.Error("agent b runs /only-a: want not a command, got executed")
	}
}

func TestUnregisterRestoresTheShadowedCommand(t *testing.T) {
	reg := New(Options{})
	must(t, reg.Register(Command{Name: "plan", Description: "global", Handler: echo("g")}))
	must(t, reg.RegisterFor("a", Command{Name: "plan", Description: "scoped", Handler: echo("a")}))
	if !reg.UnregisterFor("a", "plan") {
		t.Fatal("UnregisterFor(a, plan): want true, got false")
	}
	if cmd, _ := reg.Find("a", "plan"); cmd.Description != "global" {
		t.Errorf("after removing the scoped command: want global, got %q", cmd.Description)
	}
	if !reg.Unregister("plan") {
		t.Fatal("Unregister(plan): want true, got false")
	}
	if _, ok := reg.Find("a", "plan"); ok {
		t.Error("after removing both: want plan gone, still found")
	}
	if reg.Unregister("plan") || reg.UnregisterFor("a", "plan") {
		t.Error("removing an absent command: want false, got true")
	}
}

func TestObserversHearChangesAndCannotVetoThem(t *testing.T) {
	var panics []any
	reg := New(Options{ObserverPanic: func(p any) { panics = append(panics, p) }})
	var calls []string
	reg.Subscribe(func() { calls = append(calls, "first"); panic("observer broke") })
	stop := reg.Subscribe(func() { calls = append(calls, "second") })

	must(t, reg.Register(Command{Name: "plan", Handler: echo("x")}))
	if _, ok := reg.Find("", "plan"); !ok {
		t.Fatal("a panicking observer vetoed the registration")
	}
	reg.Unregister("plan")
	if want := "first,second,first,second"; strings.Join(calls, ",") != want {
		t.Errorf("observer calls: want %s, got %v", want, calls)
	}
	if len(panics) != 2 {
		t.Errorf("want 2 reported observer panics, got %d", len(panics))
	}
	stop()
	calls = nil
	must(t, reg.Register(Command{Name: "plan", Handler: echo("x")}))
	if strings.Join(calls, ",") != "first" {
		t.Errorf("after unsubscribing second: want only first called, got %v", calls)
	}
	calls = nil
	if reg.Register(Command{Name: "plan", Handler: echo("x")}) == nil {
		t.Fatal("duplicate registration succeeded")
	}
	if len(calls) != 0 {
		t.Errorf("a failed registration notified observers: %v", calls)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestRegistryIsSafeForConcurrentUse(t *testing.T) {
	reg := New(Options{})
	must(t, reg.Register(Command{Name: "plan", WhileRunning: true, Handler: echo("x")}))
	reg.Subscribe(func() {})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 200; i++ {
			_ = reg.RegisterFor("a", Command{Name: "plan", Handler: echo("a")})
			reg.UnregisterFor("a", "plan")
		}
	}()
	for i := 0; i < 200; i++ {
		if _, ok := reg.Execute(context.Background(), newFakeAgent("a"), "/plan", nil); !ok {
			t.Fatal("/plan vanished while a scoped command came and went")
		}
		reg.List("a")
	}
	<-done
}
