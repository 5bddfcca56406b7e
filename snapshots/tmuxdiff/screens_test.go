//go:build linux

package tmuxdiff

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/overlays/approval"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/ptyterm"
)

// A scenario drives tack to the screens it checks and returns what tack
// wrote.
type scenario struct {
	name   string
	record func(t *testing.T) recording
}

// markdown is an answer with what the Markdown renderer draws: a heading,
// emphasis, inline code, a list, a Go code block (a tab inside), a table
// with a wide character, links (one to an address with a 0x9C byte) and
// more rows than fit, so the transcript scrolls.
const markdown = "## Word count\n\n`CountWords` now splits on **any** whitespace, *even* tabs:\n\n" +
	"- one\n- two, with `code`\n\n```go\nfunc CountWords(s string) int {\n\treturn len(strings.Fields(s))\n}\n```\n\n" +
	"| input | words | note |\n|---|---:|---|\n| `a b` | 2 | plain |\n| `a\\tb` | 2 | 制表符 |\n\n" +
	"See [the docs](https://pkg.go.dev/strings#Fields) and [本](https://ja.wikipedia.org/wiki/本).\n\n" +
	"1. first\n2. second\n3. third\n4. fourth\n5. fifth\n6. sixth\n7. seventh\n8. eighth\n9. ninth\n10. tenth\n\nAll tests pass."

// wide is text of wide characters and emoji: CJK, an emoji, one with a
// skin tone, a ZWJ sequence, a flag, one with VS16, a combining accent.
// 本, 한 and ✅ hold the byte 0x9C, which x/vt alone misreads in the window
// title a prompt becomes (see the known differences).
const wide = "日本語のテキスト 中文 한국어 🙂 👍🏽 👩\u200d💻 🇯🇵 ❤\ufe0f ✅ e\u0301"

// readPause outlasts the moment after a dialog opens in which it ignores
// keys, with a margin for a loaded machine.
const readPause = approval.Guard + 100*time.Millisecond

// answerMarkdown starts tack in the terminal o describes on a model that
// answers with markdown, streamed in parts, and prompts it to the end of
// the answer.
func answerMarkdown(t *testing.T, o ptyterm.Options, parts ...llmtest.Part) *run {
	t.Helper()
	r := start(t, llmtest.New(t, llmtest.Reply(append([]llmtest.Part{llmtest.Text(markdown, 16)}, parts...)...)), o)
	r.prompt("Fix the word count")
	r.waitFor(true, "All tests pass.")
	return r
}

var scenarios = []scenario{
	{"welcome", func(t *testing.T) recording {
		r := start(t, llmtest.New(t), ptyterm.Options{Cols: 100, Rows: 30})
		r.waitFor(true, "Describe a task")
		r.check("welcome")
		return r.finish()
	}},
	{"markdown", func(t *testing.T) recording {
		r := answerMarkdown(t, ptyterm.Options{Cols: 100, Rows: 30})
		r.check("answer")
		return r.finish()
	}},
	{"approval", func(t *testing.T) recording {
		srv := llmtest.New(t,
			llmtest.Reply(llmtest.Text("Checking.", 0), llmtest.ToolCall("call_1", "bash", `{"command":"printf 'a\\tb\\n'; echo 中文","description":"Print a tab"}`, 2)),
			llmtest.Reply(llmtest.Text("Printed.", 0)),
		)
		r := start(t, srv, ptyterm.Options{Cols: 100, Rows: 30, Args: []string{"--permission-mode", "ask"}})
		r.prompt("print a tab")
		r.waitFor(false, "Allow bash?", "y allow")
		r.check("approval dialog")
		<-time.After(readPause)
		r.term.Type("y")
		r.waitFor(true, "Printed.")
		r.check("bash card")
		return r.finish()
	}},
	{"overlays", func(t *testing.T) recording {
		srv := llmtest.New(t, llmtest.Reply(llmtest.Text(strings.Repeat("behind the picker\n\n", 20), 0)))
		r := start(t, srv, ptyterm.Options{Cols: 100, Rows: 30})
		r.prompt("Fill the screen")
		r.waitFor(true, "behind the picker")
		r.term.Type("/")
		r.waitFor(false, "/clear", "/exit")
		r.check("command menu")
		r.term.Type("model")
		r.term.Key(vt.KeyEnter)
		r.waitFor(false, "Select model", "╰")
		r.check("model picker")
		return r.finish()
	}},
	{"wide characters", func(t *testing.T) recording {
		srv := llmtest.New(t, llmtest.Reply(llmtest.Text("Echo: "+wide+"\n\n| 列 | 🙂 |\n|---|---|\n| 值 | ✅ |", 4)))
		r := start(t, srv, ptyterm.Options{Cols: 100, Rows: 30})
		r.prompt(wide)
		r.waitFor(true, "Echo:")
		r.check("transcript")
		return r.finish()
	}},
	{"narrow", func(t *testing.T) recording {
		r := start(t, llmtest.New(t, llmtest.Reply(llmtest.Text(markdown, 16))), ptyterm.Options{Cols: 40, Rows: 12})
		r.waitFor(true)
		r.check("welcome")
		r.prompt("Fix the word count " + wide)
		r.waitFor(true, "All tests pass.")
		r.check("answer")
		return r.finish()
	}},
	{"resize", func(t *testing.T) recording {
		r := answerMarkdown(t, ptyterm.Options{Cols: 100, Rows: 30})
		r.resize(60, 20)
		r.waitRows(20)
		r.check("narrower")
		r.resize(120, 40)
		r.waitRows(40)
		r.check("wider")
		return r.finish()
	}},
	{"synchronized output", func(t *testing.T) recording {
		r := answerMarkdown(t, ptyterm.Options{Cols: 100, Rows: 30, SynchronizedOutput: true}, llmtest.Pace(2*time.Millisecond))
		r.check("answer")
		if !strings.Contains(r.term.Raw(), ansi.SetModeSynchronizedOutput) {
			t.Fatalf("want tack's frames in synchronized updates (mode 2026) where the terminal reports it, got %q", r.term.Raw())
		}
		return r.finish()
	}},
	{"exit", func(t *testing.T) recording {
		r := start(t, llmtest.New(t, llmtest.Reply(llmtest.Text("Done.", 0))), ptyterm.Options{Cols: 100, Rows: 30})
		r.prompt("Say done")
		r.waitFor(true, "Done.")
		r.term.Key('c', vt.ModCtrl)
		r.term.Key('c', vt.ModCtrl)
		if _, err := r.term.Wait(testkit.WaitLimit); err != nil {
			t.Fatalf("want tack to exit after Ctrl+C twice: %v", err)
		}
		r.checkAll("shell after exit")
		return r.finish()
	}},
}
