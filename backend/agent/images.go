package agent

import (
	"fmt"
	"path/filepath"

	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// failureKindImages is the failure kind of a turn whose message brings
// images the model does not take or tack cannot read.
const failureKindImages = "images"

// imagesOrigin marks the note that says a steering message's images were
// not sent.
const imagesOrigin = "images"

// attach stores the images a message mentions (@shot.png) and returns
// their references. Mentions are resolved only where the session keeps
// images. A model that takes no images refuses them: the error says what
// to do instead.
func (a *Agent) attach(text, model string) ([]session.ImageRef, error) {
	if a.cfg.Images == nil {
		return nil, nil
	}
	paths := images.Mentions(text, a.cfg.Cwd)
	if len(paths) == 0 {
		return nil, nil
	}
	v := a.vision(model)
	if !v.Images {
		return nil, imagesRefused(model, filepath.Base(paths[0]))
	}
	refs := make([]session.ImageRef, 0, len(paths))
	for _, p := range paths {
		ref, err := a.cfg.Images.PutFile(p, display(a.cfg.Cwd, p), v.MaxSide)
		if err != nil {
			return nil, err
		}
		refs = append(refs, ref)
	}
	return refs, nil
}

func imagesRefused(model, name string) error {
	return fmt.Errorf("the model %s does not accept images, so %s was not sent; switch to a model that does "+
		"(deepseek-flash) with /model or --model, or send the message without the image", model, name)
}

// vision is what the model takes of images.
func (a *Agent) vision(model string) tools.Vision {
	m, _ := a.cfg.Catalog.Lookup(model)
	side := m.MaxImageSide
	if side <= 0 {
		side = llm.DefaultMaxImageSide
	}
	return tools.Vision{Model: model, Images: m.Images, MaxSide: side}
}

// withImages fills in the bytes of the images the history carries for a
// model that takes them; for one that does not, each image becomes a note
// in its message's text, so a session that switched models still runs.
func (a *Agent) withImages(msgs []llm.Message, model string) []llm.Message {
	v := a.vision(model)
	for i, m := range msgs {
		if len(m.Images) == 0 {
			continue
		}
		m.Images = append([]llm.Image(nil), m.Images...)
		kept := m.Images[:0]
		for _, im := range m.Images {
			var data []byte
			err := fmt.Errorf("the model %s does not accept images", model)
			if v.Images && a.cfg.Images != nil {
				data, err = a.cfg.Images.Get(im.Ref)
			}
			if err != nil {
				m.Content += fmt.Sprintf("\n[image %s not sent: %v]", im.Name, err)
				continue
			}
			im.Data = data
			kept = append(kept, im)
		}
		m.Images = kept
		msgs[i] = m
	}
	return msgs
}

// display names a path relative to cwd when inside it.
func display(cwd, path string) string {
	if rel, err := filepath.Rel(cwd, path); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return path
}
