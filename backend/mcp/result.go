package mcp

import (
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"os"
	"strings"
	"unicode/utf8"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/session"
)

// keeper is where the binary content of a result goes: files the model
// can read (save nil: nowhere), and images attached to the result for a
// model that takes them (attach nil: it takes none), as Claude Code hands
// a server's images to its model.
type keeper struct {
	save   func(kind, mime string, data []byte) (string, error)
	attach func(data []byte) (session.ImageRef, error)
	images []session.ImageRef
	// saved are the files save wrote, in order.
	saved []string
}

// resultText is what the model reads of a tool result: text as sent (text
// resources too, sent as blobs or not), images, audio and binary resources
// saved to files it can read (images attached too where k attaches them),
// resource links and embedded text resources labelled, and structured
// content as JSON when the result has nothing else. Oversized text is
// capped and spilled by the agent, as every tool's is.
func resultText(res *sdk.CallToolResult, k *keeper) string {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, k.contentText(c))
	}
	if len(parts) == 0 && res.StructuredContent != nil {
		if b, err := json.Marshal(res.StructuredContent); err == nil {
			parts = append(parts, string(b))
		}
	}
	if len(parts) == 0 {
		return "(the tool returned no content)"
	}
	return strings.Join(parts, "\n")
}

func (k *keeper) contentText(c sdk.Content) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return k.binaryText("image", c.MIMEType, c.Data)
	case *sdk.AudioContent:
		return k.binaryText("audio", c.MIMEType, c.Data)
	case *sdk.ResourceLink:
		return linkText(c)
	case *sdk.EmbeddedResource:
		if c.Resource == nil {
			return "[embedded resource without contents]"
		}
		r := c.Resource
		if r.Blob != nil && !blobIsText(r) {
			return fmt.Sprintf("[resource %s] ", r.URI) + k.binaryText("resource", r.MIMEType, r.Blob)
		}
		if r.Blob != nil {
			return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Blob)
		}
		return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
	}
	return fmt.Sprintf("[content of an unknown kind %T left out]", c)
}

// blobIsText reports whether a resource's blob is text, sent
// base64-encoded, that the model reads as it is.
func blobIsText(r *sdk.ResourceContents) bool { return textual(r.MIMEType) && utf8.Valid(r.Blob) }

// textual reports whether a MIME type is text the model reads as it is,
// however the server sent it: servers send text files base64-encoded as
// blobs too.
func textual(mimeType string) bool {
	t, _, _ := mime.ParseMediaType(mimeType)
	return strings.HasPrefix(t, "text/") || t == "application/json" || t == "application/xml" ||
		strings.HasSuffix(t, "+json") || strings.HasSuffix(t, "+xml")
}

func linkText(l *sdk.ResourceLink) string {
	s := "[resource link: " + l.URI
	if l.Name != "" && l.Name != l.URI {
		s += " (" + l.Name + ")"
	}
	if l.MIMEType != "" {
		s += ", " + l.MIMEType
	}
	s += "]"
	if l.Description != "" {
		s += " " + l.Description
	}
	return s
}

func (k *keeper) binaryText(kind, mimeType string, data []byte) string {
	if mimeType == "" {
		mimeType = "application/octet-stream"
	}
	desc := fmt.Sprintf("%s %s, %.1f KB", kind, mimeType, float64(len(data))/1024)
	attached := ""
	if kind == "image" && k.attach != nil {
		if ref, err := k.attach(data); err == nil {
			k.images = append(k.images, ref)
			attached = "attached below; "
		}
	}
	if k.save == nil {
		if attached != "" {
			return fmt.Sprintf("[%s, attached below]", desc)
		}
		return fmt.Sprintf("[%s, not kept]", desc)
	}
	path, err := k.save(kind, mimeType, data)
	if err == nil {
		k.saved = append(k.saved, path)
	}
	switch {
	case err != nil:
		return fmt.Sprintf("[%s, %scould not be saved: %v]", desc, attached, err)
	case attached != "":
		return fmt.Sprintf("[%s, attached below; also saved to %s]", desc, path)
	}
	return fmt.Sprintf("[%s, saved to %s; read that file to see it]", desc, path)
}

// binarySaver saves binary results under dir, in files named for the
// server and kind that never replace an earlier one.
func binarySaver(dir, server string) func(name, mimeType string, data []byte) (string, error) {
	return func(kind, mimeType string, data []byte) (string, error) {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return "", err
		}
		ext := ".bin"
		if exts, _ := mime.ExtensionsByType(mimeType); len(exts) > 0 {
			ext = exts[0]
		}
		f, err := os.CreateTemp(dir, fmt.Sprintf("mcp-%s-%s-*%s", safeName(server), kind, ext))
		if err != nil {
			return "", err
		}
		_, werr := f.Write(data)
		if err := errors.Join(werr, f.Close()); err != nil {
			os.Remove(f.Name())
			return "", err
		}
		return f.Name(), nil
	}
}
