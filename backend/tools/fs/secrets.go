package fs

import (
	"path/filepath"
	"strings"
)

// refusal says why read will not open path, or "". Symlinks are followed
// first, so a link to a secret is refused as the secret is.
func (r *Read) refusal(path string) string {
	real := path
	if p, err := filepath.EvalSymlinks(path); err == nil {
		real = p
	}
	for _, p := range []string{path, real} {
		if processEnviron(p) {
			return "a process environment holds secrets such as API keys"
		}
		for _, s := range r.secrets {
			if s == "" {
				continue
			}
			if rs, err := filepath.EvalSymlinks(s); err == nil && rs == p || filepath.Clean(s) == p {
				return "it is tack's credentials file"
			}
		}
	}
	return ""
}

// processEnviron reports whether p is /proc/<pid>/environ (self,
// thread-self and task entries included).
func processEnviron(p string) bool {
	p = filepath.Clean(p)
	return strings.HasPrefix(p, "/proc/") && filepath.Base(p) == "environ"
}
