package fs

import (
	"fmt"
	"os"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// isImageFile reports whether path holds a PNG, JPEG, GIF or WebP image,
// by its first bytes.
func isImageFile(path string) bool {
	// Stat before opening: opening a FIFO would block until a writer came.
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return false
	}
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := f.Read(head)
	return images.Sniff(head[:n]) != ""
}

// readImage returns an image file as an image part for a model that takes
// images, scaled to fit it, and refuses it otherwise with what to do next.
func readImage(env *tools.Env, path, name string) tools.Result {
	var v tools.Vision
	if env.Vision != nil {
		v = env.Vision()
	}
	if !v.Images || env.Images == nil {
		model := "this session's model"
		if v.Model != "" {
			model = "the model " + v.Model
		}
		return tools.Errorf("cannot read %q as an image: %s does not accept images; "+
			"ask the user to switch to one that does (deepseek-flash) with /model, or inspect the file with bash (file, exiftool)", path, model)
	}
	ref, err := env.Images.PutFile(path, name, v.MaxSide)
	if err != nil {
		return tools.Errorf("cannot read %q: %v", path, err)
	}
	line := images.Describe(ref)
	kind := strings.ToUpper(strings.TrimPrefix(ref.MediaType, "image/"))
	return tools.Result{
		Text: fmt.Sprintf("Image file %s (%s, %s), attached below.", path, kind, strings.TrimPrefix(line, ref.Name+" · ")),
		Card: &card.Card{Kind: card.Read, Title: "Read " + name + " (image)", Label: "Read", Subject: name,
			Description: "image", Body: line},
		Images: []session.ImageRef{ref},
	}
}
