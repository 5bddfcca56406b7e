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
)

// resultText is what the model reads of a tool result: text as sent (text
// resources too, sent as blobs or not), images, audio and binary resources
// saved to files it can read (save
// nil says where there is nowhere to save them), resource links and
// embedded text resources labelled, and structured content as JSON when
// the result has nothing else. Oversized text is capped and spilled by the
// agent, as every tool's is.
func resultText(res *sdk.CallToolResult, save func(name, mime string, data []byte) (string, error)) string {
	var parts []string
	for _, c := range res.Content {
		parts = append(parts, contentText(c, save))
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

func contentText(c sdk.Content, save func(name, mime string, data []byte) (string, error)) string {
	switch c := c.(type) {
	case *sdk.TextContent:
		return c.Text
	case *sdk.ImageContent:
		return binaryText("image", c.MIMEType, c.Data, save)
	case *sdk.AudioContent:
		return binaryText("audio", c.MIMEType, c.Data, save)
	case *sdk.ResourceLink:
		return linkText(c)
	case *sdk.EmbeddedResource:
		if c.Resource == nil {
			return "[embedded resource without contents]"
		}
		r := c.Resource
		if r.Blob != nil && !(textual(r.MIMEType) && utf8.Valid(r.Blob)) {
			return fmt.Sprintf("[resource %s] ", r.URI) + binaryText("resource", r.MIMEType, r.Blob, save)
		}
		if r.Blob != nil {
			return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Blob)
		}
		return fmt.Sprintf("[resource %s]\n%s", r.URI, r.Text)
	}
	return fmt.Sprintf("[content of an unknown kind %T left out]", c)
}

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

func binaryText(kind, mimeType string, data []byte, save func(name, mime string, data []byte) (string, error)) string {
	if mimeType == "" {
		mimeType = "application/octet-stream"
	}
	size := fmt.Sprintf("%.1f KB", float64(len(data))/1024)
	if save == nil {
		return fmt.Sprintf("[%s %s, %s, not kept]", kind, mimeType, size)
	}
	path, err := save(kind, mimeType, data)
	if err != nil {
		return fmt.Sprintf("[%s %s, %s, could not be saved: %v]", kind, mimeType, size, err)
	}
	return fmt.Sprintf("[%s %s, %s, saved to %s; read that file to see it]", kind, mimeType, size, path)
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
