package llm

import (
	"encoding/base64"
	"encoding/json"
)

// Image is an image a message carries. Ref names it in the session's
// image store; Data holds its bytes once the agent loaded them for a
// request. Only models whose catalog entry says Images receive them.
type Image struct {
	Ref       string `json:"ref,omitempty"`
	MediaType string `json:"media_type"`
	Name      string `json:"name,omitempty"`
	Data      []byte `json:"-"`
}

// DefaultMaxImageSide is the longest side, in pixels, an image is scaled
// down to for a model that takes images but names no limit.
const DefaultMaxImageSide = 2048

// wirePart is one element of an array content: text or an image_url data
// URL (OpenAI's vision format, which DeepSeek follows).
type wirePart struct {
	Type     string        `json:"type"`
	Text     string        `json:"text,omitempty"`
	ImageURL *wireImageURL `json:"image_url,omitempty"`
}

type wireImageURL struct {
	URL string `json:"url"`
}

// imageContent is the array content of text followed by images.
func imageContent(text string, images []Image) []wirePart {
	parts := make([]wirePart, 0, len(images)+1)
	if text != "" {
		parts = append(parts, wirePart{Type: "text", Text: text})
	}
	for _, im := range images {
		parts = append(parts, wirePart{Type: "image_url", ImageURL: &wireImageURL{
			URL: "data:" + im.MediaType + ";base64," + base64.StdEncoding.EncodeToString(im.Data),
		}})
	}
	return parts
}

// MarshalJSON writes content as a string, or as an array of parts when the
// message carries images.
func (m wireMessage) MarshalJSON() ([]byte, error) {
	type plain wireMessage
	if len(m.Parts) == 0 {
		return json.Marshal(plain(m))
	}
	return json.Marshal(struct {
		plain
		Content []wirePart `json:"content"`
	}{plain(m), m.Parts})
}

// toolImagesMessage carries the images of a run of tool results: the tool
// role takes only text, so they follow as one user message.
func toolImagesMessage(images []Image) wireMessage {
	return wireMessage{Role: RoleUser, Parts: imageContent("Attached image(s) from tool result:", images)}
}
