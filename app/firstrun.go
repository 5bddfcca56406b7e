package app

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// FirstRunOptions configure the first-run screen.
type FirstRunOptions struct {
	// CredentialsPath is where the key will be stored, for the text.
	CredentialsPath string
	// Home shortens paths in the text to ~.
	Home string
	// Open stores the key and opens the session. It runs in a command,
	// never in Update.
	Open func(key string) (Backend, error)
	// Chat is the chat screen's options; Backend, Width and Height are
	// filled in once the session is open.
	Chat Options
}

// FirstRun is the screen shown when no API key is configured: it explains
// the choices, takes a DeepSeek key in a masked field, stores it and hands
// over to the chat screen without a restart.
type FirstRun struct {
	opts          FirstRunOptions
	theme         theme.Theme
	key           []rune
	width, height int
	busy          bool
	err           string
	armedCtC      bool
}

// openedMsg is the outcome of FirstRunOptions.Open.
type openedMsg struct {
	be  Backend
	err error
}

// NewFirstRun makes the first-run screen.
func NewFirstRun(o FirstRunOptions) *FirstRun {
	return &FirstRun{opts: o, theme: theme.NewOn(o.Chat.Background, o.Chat.Colour), width: max(o.Chat.Width, 20), height: max(o.Chat.Height, 6)}
}

// Init does nothing.
func (f *FirstRun) Init() tea.Cmd { return nil }

// Update edits the key field; Enter saves it and opens the session.
func (f *FirstRun) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		f.width, f.height = max(msg.Width, 20), max(msg.Height, 6)
	case tea.PasteMsg:
		f.insert(msg.Content)
	case openedMsg:
		return f.opened(msg)
	case tea.KeyPressMsg:
		return f, f.keyPress(msg)
	}
	return f, nil
}

func (f *FirstRun) keyPress(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s != "ctrl+c" {
		f.armedCtC = false
	}
	if f.busy {
		if s == "ctrl+c" || s == "ctrl+d" {
			return tea.Quit
		}
		return nil
	}
	switch s {
	case "ctrl+c":
		if len(f.key) > 0 {
			f.key = nil
			return nil
		}
		return tea.Quit
	case "ctrl+d":
		return tea.Quit
	case "backspace":
		if len(f.key) > 0 {
			f.key = f.key[:len(f.key)-1]
		}
	case "enter":
		return f.submit()
	default:
		if k.Text != "" {
			f.insert(k.Text)
		}
	}
	return nil
}

// insert adds typed or pasted text, keeping only printable characters
// (a pasted key often brings a line break along).
func (f *FirstRun) insert(s string) {
	for _, r := range s {
		if unicode.IsPrint(r) && !unicode.IsSpace(r) {
			f.key = append(f.key, r)
		}
	}
	f.err = ""
}

func (f *FirstRun) submit() tea.Cmd {
	key := strings.TrimSpace(string(f.key))
	if key == "" {
		f.err = "Type or paste a DeepSeek API key first."
		return nil
	}
	f.busy, f.err = true, ""
	open := f.opts.Open
	return func() tea.Msg {
		be, err := open(key)
		return openedMsg{be: be, err: err}
	}
}

// opened hands over to the chat screen, or shows why it could not.
func (f *FirstRun) opened(msg openedMsg) (tea.Model, tea.Cmd) {
	f.busy = false
	if msg.err != nil {
		f.err = textfmt.SanitizeLine(msg.err.Error())
		return f, nil
	}
	o := f.opts.Chat
	o.Backend, o.Width, o.Height = msg.be, f.width, f.height
	chat := New(o)
	return chat, chat.Init()
}

// View draws the explanation and the masked field.
func (f *FirstRun) View() tea.View {
	th := f.theme
	path := textfmt.HomeRel(f.opts.CredentialsPath, f.opts.Home)
	mask := strings.Repeat("•", len(f.key))
	field := th.Bold.Render("DeepSeek API key: ") + mask
	lines := []string{
		th.Label.Render("tack"),
		"",
		"Welcome. tack needs a model to talk to; there are two ways to give it one.",
		"",
		th.Bold.Render("1. DeepSeek") + " — paste an API key from https://platform.deepseek.com/api_keys below.",
		"   It is stored in " + textfmt.SanitizeLine(path) + " (readable only by you).",
		"",
		th.Bold.Render("2. A local OpenAI-compatible server") + " (llama.cpp, vLLM, Ollama …) — quit and start",
		"   " + th.Code.Render("OPENAI_BASE_URL=http://127.0.0.1:8080/v1 tack --provider openai"),
		"",
		field,
	}
	cursorRow := len(lines) - 1
	switch {
	case f.busy:
		lines = append(lines, "", th.Dim.Render("Saving the key and starting the session…"))
	case f.err != "":
		lines = append(lines, "", th.Error.Render(f.err))
	}
	lines = append(lines, "", th.Dim.Render("enter save and start · ctrl+c quit"))
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, f.width, "…")
	}
	v := tea.NewView(strings.Join(lines, "\n"))
	v.AltScreen = true
	v.WindowTitle = windowTitleSuffix
	if !f.busy {
		v.Cursor = tea.NewCursor(min(ansi.StringWidth("DeepSeek API key: ")+len(f.key), f.width-1), cursorRow)
		v.Cursor.Shape = tea.CursorBar
		v.Cursor.Blink = false
	}
	return v
}
