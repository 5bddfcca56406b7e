package mcp

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// maxDescription caps a tool description sent to the model.
const maxDescription = 2048

// Tool is one tool of an MCP server, offered to the model as
// mcp__<server>__<tool>.
type Tool struct {
	conn  *conn
	name  string // the server's name for it
	title string
	spec  tools.Spec
}

var _ tools.Tool = (*Tool)(nil)

// ToolName is the name the model calls a server's tool by: letters,
// digits, '_' and '-' only, at most 64 bytes (longer names keep a hash of
// the whole), as function names must be.
func ToolName(server, tool string) string {
	name := "mcp__" + safeName(server) + "__" + safeName(tool)
	if len(name) <= 64 {
		return name
	}
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	return name[:55] + "_" + hex.EncodeToString(sum[:])[:8]
}

func safeName(s string) string {
	b := []byte(s)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

func (c *conn) newTool(t *sdk.Tool) *Tool {
	readOnly := t.Annotations != nil && t.Annotations.ReadOnlyHint
	title := t.Title
	if title == "" && t.Annotations != nil {
		title = t.Annotations.Title
	}
	desc := clean(strings.TrimSpace(t.Description))
	if r := []rune(desc); len(r) > maxDescription {
		desc = string(r[:maxDescription]) + "…"
	}
	if desc == "" {
		desc = fmt.Sprintf("Tool %s of the MCP server %s.", t.Name, c.srv.Name)
	}
	return &Tool{
		conn: c, name: t.Name, title: clean(title),
		spec: tools.Spec{
			Name: ToolName(c.srv.Name, t.Name), Description: desc, Schema: inputSchema(t.InputSchema),
			Access: tools.AccessExternal, ReadOnlyHint: readOnly, Trusted: c.srv.trusts(t.Name),
			ParallelSafe: readOnly,
		},
	}
}

// inputSchema is the server's schema as JSON, made an object schema when
// the server left that out (providers refuse function parameters that are
// not an object).
func inputSchema(s any) json.RawMessage {
	m, ok := s.(map[string]any)
	if !ok {
		m = map[string]any{}
	}
	if m["type"] == nil {
		m["type"] = "object"
	}
	if m["type"] == "object" && m["properties"] == nil {
		m["properties"] = map[string]any{}
	}
	b, err := json.Marshal(m) // maps marshal with sorted keys: byte-stable
	if err != nil {
		return json.RawMessage(`{"type":"object","properties":{}}`)
	}
	return b
}

// Server is the name of the server the tool belongs to.
func (t *Tool) Server() string { return t.conn.srv.Name }

// Spec describes the tool to the model and the permission gate.
func (t *Tool) Spec() tools.Spec { return t.spec }

// Present is a card naming the server and tool, with the arguments.
func (t *Tool) Present(args json.RawMessage) card.Card {
	return card.Card{Kind: card.Generic, Title: t.conn.srv.Name + " · " + t.name, Label: t.conn.srv.Name + " · " + t.name,
		Description: t.title, Body: argumentsText(args)}
}

// argumentsText shows the arguments one per line, "key: value", values as
// compact JSON, at most 40 lines.
func argumentsText(args json.RawMessage) string {
	var m map[string]json.RawMessage
	if json.Unmarshal(args, &m) != nil || len(m) == 0 {
		return ""
	}
	var lines []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		var v bytes.Buffer
		if json.Compact(&v, m[k]) != nil {
			v.Write(m[k])
		}
		val := v.String()
		var str string
		if json.Unmarshal(m[k], &str) == nil {
			val = str
		}
		if r := []rune(val); len(r) > 300 {
			val = string(r[:300]) + "…"
		}
		lines = append(lines, clean(k)+": "+clean(val))
		if len(lines) == 40 {
			lines = append(lines, fmt.Sprintf("… %d more arguments", len(m)-40))
			break
		}
	}
	return strings.Join(lines, "\n")
}

// Run calls the tool on its server, bounded by ctx (Esc) and by the
// server's tool timeout, which progress the server reports starts again,
// and turns the answer into what the model reads.
func (t *Tool) Run(ctx context.Context, call tools.Call) tools.Result {
	tctx, token, done := t.conn.progress.quietTimeout(ctx, t.conn.srv.ToolTimeout)
	defer done()
	res, err := t.conn.call(tctx, t.name, call.Args, token)
	switch {
	case err == nil:
	case ctx.Err() != nil:
		return tools.Errorf("the call to %s was cancelled", t.spec.Name)
	case errors.Is(context.Cause(tctx), errSilent):
		return tools.Errorf("MCP server %s did not answer %s, nor report progress, within %s (tool_timeout_ms); it may still be working on it",
			t.conn.srv.Name, t.name, t.conn.srv.ToolTimeout)
	case connectionLost(err):
		return tools.Errorf("MCP server %s stopped during the call to %s%s", t.conn.srv.Name, t.name, t.conn.stderrNote())
	default:
		if text, ok := t.conn.pagesRequired(t.name, err); ok {
			return tools.Errorf("%s", text)
		}
		return tools.Errorf("MCP server %s: %s", t.conn.srv.Name, t.conn.redact.Text(clean(err.Error())))
	}
	k := keeperIn(call.Env, t.conn.srv.Name, t.name)
	text := resultText(res, k)
	if res.IsError {
		return tools.Result{Text: "Error: " + text, IsError: true, Images: k.images}
	}
	return tools.Result{Text: text, Images: k.images}
}

// keeperIn saves the binary content a server sent in the session's spill
// directory and attaches images when the model takes them; what names
// where they came from, for the screen.
func keeperIn(env *tools.Env, server, what string) *keeper {
	k := &keeper{}
	if env == nil {
		return k
	}
	if env.SpillDir != "" {
		k.save = binarySaver(env.SpillDir, server)
	}
	if env.Images != nil && env.Vision != nil {
		if v := env.Vision(); v.Images {
			name := server + " · " + what
			k.attach = func(data []byte) (session.ImageRef, error) {
				p, err := images.Prepare(name, data, v.MaxSide)
				if err != nil {
					return session.ImageRef{}, err
				}
				return env.Images.Put(p)
			}
		}
	}
	return k
}

func (c *conn) stderrNote() string {
	lines := c.stderr.Lines(5)
	if len(lines) == 0 {
		return ""
	}
	return "; its last stderr lines:\n" + strings.Join(lines, "\n")
}
