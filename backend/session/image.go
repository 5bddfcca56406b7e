package session

import "github.com/tack-agent/tack/backend/llm"

// ImageRef names an image a message carries. The bytes live once in the
// session's image store (content-addressed by Hash, see ImageDir); the log
// holds only the reference.
type ImageRef struct {
	// Hash is the hex SHA-256 of the stored bytes.
	Hash      string `json:"hash"`
	MediaType string `json:"media_type"`
	// Name is where the image came from (a file name), for the screen.
	Name   string `json:"name"`
	Bytes  int    `json:"bytes"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
	// OrigWidth and OrigHeight are set when the image was scaled down to
	// fit the model.
	OrigWidth  int `json:"orig_width,omitempty"`
	OrigHeight int `json:"orig_height,omitempty"`
}

// ImageDir is where session logPath keeps its images: beside the log, in a
// directory named after it.
func ImageDir(logPath string) string {
	return trimLogExt(logPath) + "/images"
}

func trimLogExt(p string) string {
	if len(p) > len(logExt) && p[len(p)-len(logExt):] == logExt {
		return p[:len(p)-len(logExt)]
	}
	return p
}

// llmImages turns references into the model message's image parts, bytes
// still unloaded.
func llmImages(refs []ImageRef) []llm.Image {
	if len(refs) == 0 {
		return nil
	}
	out := make([]llm.Image, len(refs))
	for i, r := range refs {
		out[i] = llm.Image{Ref: r.Hash, MediaType: r.MediaType, Name: r.Name}
	}
	return out
}
