package mcp

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// The scenarios hold against the real servers (TestRealServers) and
// against their recordings (TestRecordedServers): what they check is what
// tack made of the server's answers, which the recording keeps.

// filesystemScenario reads a file in the workspace, is refused one outside
// it, adds that file's directory as a root and reads it. It returns the
// directory it added.
func filesystemScenario(t *testing.T, s *realSession) string {
	t.Helper()
	other := freeWorkspace(t)
	mustWrite(t, filepath.Join(s.cwd, "a.txt"), "in the workspace\n")
	mustWrite(t, filepath.Join(other, "b.txt"), "beside it\n")
	if s.tools[ListResourcesName] != nil {
		t.Errorf("the filesystem server has no resources, yet tack offers %s", ListResourcesName)
	}
	s.callUntil(t, "list_allowed_directories", "{}", "a directory", func(text string) bool { return allowedDirs(text) == 1 })
	if res := s.call(t, "read_text_file", pathArgs(s.cwd, "a.txt")); res.IsError || !strings.Contains(res.Text, "in the workspace") {
		t.Errorf("reading a file of the workspace: %+v", res)
	}
	if res := s.call(t, "read_text_file", pathArgs(other, "b.txt")); !res.IsError || !strings.HasPrefix(res.Text, "Error: Access denied") {
		t.Errorf("reading a file outside the roots: %+v, want the server's refusal as an error", res)
	}
	s.m.AddRoot(other)
	s.callUntil(t, "list_allowed_directories", "{}", "two directories", func(text string) bool { return allowedDirs(text) == 2 })
	if res := s.call(t, "read_text_file", pathArgs(other, "b.txt")); res.IsError || !strings.Contains(res.Text, "beside it") {
		t.Errorf("reading a file of the added root: %+v", res)
	}
	return other
}

// allowedDirs counts the directories list_allowed_directories names.
func allowedDirs(text string) int {
	n := 0
	for _, l := range strings.Split(text, "\n")[1:] {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

func pathArgs(dir, name string) string {
	b, _ := json.Marshal(map[string]string{"path": filepath.Join(dir, name)})
	return string(b)
}

func mustWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
}

// savedFile is the file a result says binary content was saved to.
var savedFile = regexp.MustCompile(`saved to ([^\s;\]]+)`)

// everythingScenario calls every tool of the everything server that runs
// without tasks, and returns what it said of tack's roots.
func everythingScenario(t *testing.T, s *realSession) string {
	t.Helper()
	roots := s.callUntil(t, "get-roots-list", "{}", "the roots", func(text string) bool { return strings.Contains(text, "file://") })
	last := map[string]tools.Result{} // each tool's last result
	for _, c := range []struct{ tool, args, want string }{
		{"echo", `{"message":"hi"}`, "Echo: hi"},
		{"get-sum", `{"a":2,"b":3}`, "The sum of 2 and 3 is 5."},
		{"get-annotated-message", `{"messageType":"success","includeImage":true}`, "[image image/png, "},
		{"get-resource-links", `{"count":2}`, "[resource link: demo://resource/dynamic/text/2 (Text Resource 2), text/plain] Resource 2: plaintext resource"},
		{"get-resource-reference", `{"resourceId":1,"resourceType":"Text"}`, "[resource demo://resource/dynamic/text/1]\nResource 1: This is a plaintext resource"},
		{"get-resource-reference", `{"resourceId":2,"resourceType":"Blob"}`, "[resource demo://resource/dynamic/blob/2]\nResource 2: This is a base64 blob"},
		{"get-structured-content", `{"location":"Chicago"}`, `"temperature":36`},
		{"gzip-file-as-resource", `{"data":"data:text/plain;base64,aGVsbG8K","name":"hello.gz","outputType":"resourceLink"}`,
			"[resource link: demo://resource/session/hello.gz (hello.gz), application/gzip]"},
		{"trigger-long-running-operation", `{"duration":4,"steps":4}`, "Long running operation completed."},
		{"toggle-simulated-logging", `{}`, "Started simulated, random-leveled logging"},
		{"toggle-subscriber-updates", `{}`, "Started simulated resource updated notifications"},
		{"echo", `{"message":"still there"}`, "Echo: still there"},
		{ListResourcesName, `{"server":"everything"}`, "  demo://resource/session/hello.gz (hello.gz), application/gzip"},
		{ReadResourceName, `{"server":"everything","uri":"demo://resource/dynamic/text/2"}`,
			"[resource demo://resource/dynamic/text/2]\nResource 2: This is a plaintext resource"},
	} {
		res := s.call(t, c.tool, c.args)
		if res.IsError || !strings.Contains(res.Text, c.want) {
			t.Errorf("%s %s: %+v, want a result with %q", c.tool, c.args, res, c.want)
		}
		last[c.tool] = res
	}
	vision := &tools.Env{SpillDir: s.spill, Images: images.NewStore(t.TempDir()),
		Vision: func() tools.Vision { return tools.Vision{Model: "test", Images: true, MaxSide: 2000} }}
	image := s.callIn(t, vision, "get-tiny-image", "{}")
	if data := savedContent(t, image.Text); !bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")) {
		t.Errorf("get-tiny-image saved %.20q, want a PNG image", data)
	}
	if len(image.Images) != 1 || image.Images[0].MediaType != "image/png" || image.Images[0].Width != 20 ||
		!strings.Contains(image.Text, "attached below; also saved to ") || strings.Contains(image.Text, "read that file") {
		t.Errorf("get-tiny-image for a model that takes images: %q with images %+v, want its 20×20 PNG attached", image.Text, image.Images)
	}
	gz := s.call(t, "gzip-file-as-resource", `{"data":"data:text/plain;base64,aGVsbG8K","name":"embedded.gz","outputType":"resource"}`)
	r, err := gzip.NewReader(bytes.NewReader(savedContent(t, gz.Text)))
	if err != nil {
		t.Fatalf("gzip-file-as-resource %q: %v", gz.Text, err)
	}
	if plain, err := io.ReadAll(r); err != nil || string(plain) != "hello\n" {
		t.Errorf("gzip-file-as-resource saved a file of %q (%v), want \"hello\\n\" compressed", plain, err)
	}
	linked := s.call(t, ReadResourceName, `{"server":"everything","uri":"demo://resource/session/hello.gz"}`)
	if r, err := gzip.NewReader(bytes.NewReader(savedContent(t, linked.Text))); err != nil {
		t.Errorf("reading the resource gzip-file-as-resource linked to: %q: %v", linked.Text, err)
	} else if plain, err := io.ReadAll(r); err != nil || string(plain) != "hello\n" {
		t.Errorf("the resource gzip-file-as-resource linked to holds %q (%v), want \"hello\\n\" compressed", plain, err)
	}
	resourceFacts(t, last[ListResourcesName], last[ReadResourceName], linked)
	if res := s.call(t, "simulate-research-query", `{"topic":"go"}`); !res.IsError || !strings.Contains(res.Text, "task") {
		t.Errorf("a tool that needs tasks, which tack does not run: %+v, want the server's refusal as an error", res)
	}
	return roots
}

// resourceFacts checks what the everything server's resources became on
// the cards of the resource tools' results, for the programs that read
// them as data (Claude Code's tool_use_result): the resource
// gzip-file-as-resource made, with its server, among those listed; the
// text of a text resource read, the one the model read; the file a binary
// one read was saved to, the one its text names.
func resourceFacts(t *testing.T, list, text, binary tools.Result) {
	t.Helper()
	hello := card.Resource{URI: "demo://resource/session/hello.gz", Name: "hello.gz", MIMEType: "application/gzip", Server: "everything"}
	if list.Card == nil || list.Card.Listed == nil || !slices.Contains(list.Card.Listed.Resources, hello) {
		t.Errorf("the listing's card %+v, want %+v among its resources", list.Card, hello)
	}
	uri := "demo://resource/dynamic/text/2"
	if c := contents(text); len(c) != 1 || c[0].URI != uri || c[0].MIMEType != "text/plain" || c[0].SavedTo != "" ||
		"[resource "+uri+"]\n"+c[0].Text != text.Text {
		t.Errorf("the text resource's card holds %+v, want %s, text/plain, and the text the model read:\n%s", c, uri, text.Text)
	}
	m := savedFile.FindStringSubmatch(binary.Text)
	if c := contents(binary); m == nil || !slices.Equal(c, []card.ResourceContent{{URI: hello.URI, MIMEType: hello.MIMEType, SavedTo: m[1]}}) {
		t.Errorf("the binary resource's card holds %+v, want %s, %s saved to the file its text names: %s", c, hello.URI, hello.MIMEType, binary.Text)
	}
}

// TestAResourceTooLargeKeepsNoTextOnItsCard pins ResourceTextLimit: the
// text of a resource read stays on its card up to the limit, its contents
// together, and past it none does, as the result's text is spilled.
func TestAResourceTooLargeKeepsNoTextOnItsCard(t *testing.T) {
	half := strings.Repeat("x", card.ResourceTextLimit/2)
	if got := keptText([]card.ResourceContent{{URI: "a", Text: half}, {URI: "b", Text: half}}); got[0].Text != half || got[1].Text != half {
		t.Errorf("contents of %d bytes together kept %d and %d bytes of text, want all", 2*len(half), len(got[0].Text), len(got[1].Text))
	}
	got := keptText([]card.ResourceContent{{URI: "a", Text: half}, {URI: "b", Text: half + "x"}})
	if want := []card.ResourceContent{{URI: "a"}, {URI: "b"}}; !slices.Equal(got, want) {
		t.Errorf("contents of more than %d bytes together kept text, want none: %d and %d bytes", card.ResourceTextLimit, len(got[0].Text), len(got[1].Text))
	}
}

// contents are the contents of a resource read kept on its card.
func contents(r tools.Result) []card.ResourceContent {
	if r.Card == nil || r.Card.Contents == nil {
		return nil
	}
	return r.Card.Contents.Contents
}

// refusalScenario calls the everything server's tool that asks tack for
// what it does not do: a model's answer (sampling), which Claude Code
// does not give either. The request must be refused at once with a
// JSON-RPC error the server turns into the tool's error, never left to
// hang the call.
func refusalScenario(t *testing.T, s *realSession) {
	t.Helper()
	for _, c := range []struct{ tool, args, want string }{
		{"trigger-sampling-request", `{"prompt":"Say hi","maxTokens":20}`, `MCP error -32601: method not found: "sampling/createMessage"`},
		{"echo", `{"message":"still there"}`, "Echo: still there"},
	} {
		res := s.call(t, c.tool, c.args)
		if !strings.Contains(res.Text, c.want) || strings.Contains(res.Text, "did not answer") {
			t.Errorf("%s %s: %+v, want a result with %q", c.tool, c.args, res, c.want)
		}
	}
}

// savedContent is the content of the file a result saved binary content
// to.
func savedContent(t *testing.T, text string) []byte {
	t.Helper()
	m := savedFile.FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("result %q names no saved file", text)
	}
	data, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestRecordedServers replays the real servers' recordings to tack's
// client, the scenarios and what the client told them of its roots.
func TestRecordedServers(t *testing.T) {
	t.Run("filesystem", func(t *testing.T) {
		srv, log := filesystem.replayed(t)
		ws := freeWorkspace(t)
		other := filesystemScenario(t, startSession(t, srv, ws))
		answers := rootsAnswers(t, log)
		want := [][]string{{root(ws).URI}, {root(other).URI, root(ws).URI}}
		slices.Sort(want[1])
		if !slices.EqualFunc(answers, want, slices.Equal) {
			t.Errorf("tack answered roots/list with %q, want the workspace, then with the added directory too: %q", answers, want)
		}
	})
	t.Run("everything asking what tack refuses", func(t *testing.T) {
		srv, log := refusedBy.replayed(t)
		refusalScenario(t, startSession(t, srv, freeWorkspace(t)))
		data, err := os.ReadFile(log)
		if err != nil {
			t.Fatal(err)
		}
		for _, method := range []string{"sampling/createMessage"} {
			want := fmt.Sprintf(`"error":{"code":-32601,"message":%q}`, fmt.Sprintf("method not found: %q", method))
			if !strings.Contains(string(data), want) {
				t.Errorf("tack did not refuse %s with %s; it sent:\n%s", method, want, data)
			}
		}
	})
	t.Run("everything", func(t *testing.T) {
		srv, log := everything.replayed(t)
		ws := freeWorkspace(t)
		everythingScenario(t, startSession(t, srv, ws))
		if answers := rootsAnswers(t, log); len(answers) != 1 || !slices.Equal(answers[0], []string{root(ws).URI}) {
			t.Errorf("tack answered roots/list with %q, want [[%s]]", answers, root(ws).URI)
		}
	})
}

// rootsAnswers are the roots of each roots/list answer in a client's log.
func rootsAnswers(t *testing.T, log string) [][]string {
	t.Helper()
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, line := range bytes.Split(data, []byte("\n")) {
		var m struct {
			Result struct {
				Roots []struct{ URI string } `json:"roots"`
			} `json:"result"`
		}
		if json.Unmarshal(line, &m) != nil || m.Result.Roots == nil {
			continue
		}
		uris := []string{}
		for _, r := range m.Result.Roots {
			uris = append(uris, r.URI)
		}
		out = append(out, uris)
	}
	return out
}

// promptsScenario lists the everything server's prompts and gets two:
// args-prompt with its required argument alone, and resource-prompt,
// whose second message embeds a text resource, once as the server takes
// it and once with a type it refuses.
func promptsScenario(t *testing.T, srv Server) {
	t.Helper()
	s := startWith(t, Options{Servers: []Server{srv}, Cwd: freeWorkspace(t)})
	testkit.Eventually(t, "the everything server's prompts", func() bool { return len(s.m.Prompts()) == 4 },
		func() string { return fmt.Sprint(promptNames(s.m.Prompts())) })
	want := Prompt{Server: "everything", Name: "args-prompt", Title: "Arguments Prompt",
		Description: "A prompt with two arguments, one required and one optional",
		Arguments:   []PromptArgument{{Name: "city", Description: "Name of the city", Required: true}, {Name: "state"}}}
	if i := slices.IndexFunc(s.m.Prompts(), func(p Prompt) bool { return p.Name == want.Name }); i < 0 || !reflect.DeepEqual(s.m.Prompts()[i], want) {
		t.Errorf("the prompts are %+v, want %+v among them", s.m.Prompts(), want)
	}
	ctx := context.Background()
	if text, err := s.m.GetPrompt(ctx, "everything", "args-prompt", map[string]string{"city": "Paris"}); err != nil || text != "What's weather in Paris?" {
		t.Errorf("args-prompt for Paris: %q, %v", text, err)
	}
	text, err := s.m.GetPrompt(ctx, "everything", "resource-prompt", map[string]string{"resourceType": "Text", "resourceId": "1"})
	lead := "This prompt includes the Text resource with id: 1. Please analyze the following resource:\n\n" +
		"[resource demo://resource/dynamic/text/1]\nResource 1: This is a plaintext resource"
	if err != nil || !strings.HasPrefix(text, lead) {
		t.Errorf("resource-prompt: %q, %v; want its text, then the resource labelled", text, err)
	}
	_, err = s.m.GetPrompt(ctx, "everything", "resource-prompt", map[string]string{"resourceType": "Foo", "resourceId": "1"})
	if !errors.Is(err, ErrPromptRefused) || !strings.Contains(err.Error(), "Invalid resourceType: Foo. Must be Text or Blob.") {
		t.Errorf("resource-prompt of a type the server refuses: %v", err)
	}
}

// TestRecordedPrompts replays the everything server's prompts.
func TestRecordedPrompts(t *testing.T) {
	srv, _ := promptedBy.replayed(t)
	promptsScenario(t, srv)
}
