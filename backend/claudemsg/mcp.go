package claudemsg

import "github.com/tack-agent/tack/backend/card"

// listMcpResourcesOutput is ListMcpResourcesTool's ListMcpResourcesOutput:
// the resources listed, each with its server.
func listMcpResourcesOutput(c *card.Card) any {
	if c.Listed == nil {
		return nil
	}
	out := make([]mcpResource, len(c.Listed.Resources))
	for i, r := range c.Listed.Resources {
		out[i] = mcpResource(r)
	}
	return out
}

type mcpResource struct {
	URI         string `json:"uri"`
	Name        string `json:"name"`
	MIMEType    string `json:"mimeType,omitempty"`
	Description string `json:"description,omitempty"`
	Server      string `json:"server"`
}

// readMcpResourceOutput is ReadMcpResourceTool's ReadMcpResourceOutput:
// the resource's contents, text as it is and binary ones by the file each
// was saved to (blobSavedTo), as Claude Code saves them.
func readMcpResourceOutput(c *card.Card) any {
	if c.Contents == nil {
		return nil
	}
	out := make([]mcpContent, len(c.Contents.Contents))
	for i, rc := range c.Contents.Contents {
		out[i] = mcpContent(rc)
	}
	return mcpContents{Contents: out}
}

type mcpContents struct {
	Contents []mcpContent `json:"contents"`
}

type mcpContent struct {
	URI      string `json:"uri"`
	MIMEType string `json:"mimeType,omitempty"`
	Text     string `json:"text,omitempty"`
	SavedTo  string `json:"blobSavedTo,omitempty"`
}
