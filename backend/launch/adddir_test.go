package launch

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// /add-dir lets the session's sandboxed commands write in the directory
// at once; the model reads of it in the conversation while the system
// prompt stays byte for byte what it was, so the prompt cache still
// serves it; /status lists it.
func TestAddDirWidensTheSessionAndTellsTheModelInTheConversation(t *testing.T) {
	home, user, cwd, lib := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	made := filepath.Join(lib, "made")
	llm := llmtest.New(t, bashCall("call_1", "touch "+made), llmtest.ReplyText("Done."))
	// Commands' temp directory is one of its own, so that lib, beside it
	// in the system's, is writable only once added.
	s := openEnv(t, home, cwd, "auto", llm, map[string]string{"HOME": user, "TMPDIR": t.TempDir()})
	if st := s.Sandbox.Status(); !st.Active {
		t.Skip("this system cannot confine commands: " + st.Reason)
	}
	system := s.Agent.System()
	ctx := context.Background()
	exec, _ := s.Commands.Execute(ctx, s.Agent, "/add-dir "+lib, nil)
	if want := "Added " + lib + " as a working directory for this session."; !strings.HasPrefix(exec.Result.Text, want) {
		t.Fatalf("want %q, got %+v", want, exec.Result)
	}
	runTurn(t, s, "Make it.")
	if _, err := os.Stat(made); err != nil {
		t.Fatalf("want the sandboxed command to write in the added directory, got %v; the model read %q",
			err, llm.Requests()[1].ToolResult("call_1"))
	}
	req := llm.Requests()[0]
	if req.Messages[0].Content != system || s.Agent.System() != system {
		t.Errorf("want the system prompt unchanged by /add-dir")
	}
	if n := said(req, "for the rest of this run of tack (/add-dir): "+lib+"."); n != 1 {
		t.Errorf("want the model told of the directory once, got %d times in %+v", n, req.Messages)
	}
	status, _ := s.Commands.Execute(ctx, s.Agent, "/status", nil)
	if !strings.Contains(status.Result.Text, "\nAdded dirs "+lib+"\n") {
		t.Errorf("want /status to list the added directory, got\n%s", status.Result.Text)
	}
}

// As with --add-dir, which a resumed session takes from its own command
// line, a directory /add-dir added is not restored by --resume: the
// resumed session works where its own flags and settings say, the user
// and the model are told so, and /add-dir adds the directory again.
func TestResumeDoesNotRestoreADirectoryAddedBefore(t *testing.T) {
	home, user, cwd, lib := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	llm := llmtest.New(t, llmtest.ReplyText("ok"), llmtest.ReplyText("ok"))
	s := resume(t, Options{Home: home, Cwd: cwd}, llm, user)
	ctx := context.Background()
	s.Commands.Execute(ctx, s.Agent, "/add-dir "+lib, nil)
	runTurn(t, s, "hi")
	id := s.Log.Header().ID
	s.Close()

	resumed := resume(t, Options{Home: home, Cwd: cwd, Resume: id}, llm, user)
	if dirs := resumed.Policy.Dirs(); len(dirs) != 0 || slices.Contains(resumed.Sandbox.Layout().Writable, lib) {
		t.Fatalf("want no added directory after resume, got %v (writable %v)", dirs, resumed.Sandbox.Layout().Writable)
	}
	if got := notices(t, resumed); !slices.ContainsFunc(got, func(n string) bool { return strings.HasPrefix(n, "The directories /add-dir added before") }) {
		t.Errorf("want the user told the directories are not restored, got %q", got)
	}
	runTurn(t, resumed, "again")
	if n := said(llm.Requests()[1], addDirsForgotten); n != 1 {
		t.Errorf("want the model told once the directories are not restored, got %d times", n)
	}
	exec, _ := resumed.Commands.Execute(ctx, resumed.Agent, "/add-dir "+lib, nil)
	if exec.Result.Kind != "success" || !slices.Equal(resumed.Policy.Dirs(), []string{lib}) {
		t.Fatalf("want /add-dir to add it again, got %+v, %v", exec.Result, resumed.Policy.Dirs())
	}
}

// A session resumed again, with nothing added since, is not told twice.
func TestResumedTwiceTheForgottenDirectoriesAreToldOnce(t *testing.T) {
	home, user, cwd, lib := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	llm := llmtest.New(t, llmtest.ReplyText("ok"), llmtest.ReplyText("ok"))
	s := resume(t, Options{Home: home, Cwd: cwd}, llm, user)
	s.Commands.Execute(context.Background(), s.Agent, "/add-dir "+lib, nil)
	runTurn(t, s, "hi")
	id := s.Log.Header().ID
	s.Close()
	once := resume(t, Options{Home: home, Cwd: cwd, Resume: id}, llm, user)
	runTurn(t, once, "again")
	once.Close()
	twice := resume(t, Options{Home: home, Cwd: cwd, Resume: id}, llm, user)
	if got := notices(t, twice); slices.ContainsFunc(got, func(n string) bool { return strings.HasPrefix(n, "The directories /add-dir added before") }) {
		t.Errorf("want no second notice, got %q", got)
	}
}
