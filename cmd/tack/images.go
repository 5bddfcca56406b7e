package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/mention"
)

// withImages appends an @mention of each --image file to the task, so the
// turn attaches them as the full screen's pasted images are. Each file
// must exist and be a PNG, JPEG, GIF or WebP image.
func withImages(task string, files []string, cwd string) (string, error) {
	if len(files) == 0 {
		return task, nil
	}
	mentions := make([]string, len(files))
	for i, f := range files {
		path := f
		if !filepath.IsAbs(path) {
			path = filepath.Join(cwd, path)
		}
		head := make([]byte, 16)
		file, err := os.Open(path)
		if err != nil {
			return "", fmt.Errorf("--image %s: %v", f, err)
		}
		n, _ := file.Read(head)
		file.Close()
		if images.Sniff(head[:n]) == "" || !images.IsImageName(path) {
			return "", fmt.Errorf("--image %s: not a PNG, JPEG, GIF or WebP image (with a .png, .jpg, .gif or .webp name)", f)
		}
		mentions[i] = mention.For(path)
	}
	return task + "\n\n" + strings.Join(mentions, " "), nil
}
