package search

import (
	"encoding/json"
	"path/filepath"

	"github.com/tack-agent/tack/backend/tools"
)

// ReadTargets is the directory a glob call searches: its path, the
// leading directory of an absolute pattern, or the working directory.
func (*Glob) ReadTargets(call tools.Call) []string {
	var a globArgs
	_ = json.Unmarshal(call.Args, &a)
	dir := a.Path
	if filepath.IsAbs(a.Pattern) && dir == "" {
		dir, _ = splitAbsolute(a.Pattern)
	}
	return []string{orCwd(dir)}
}

// ReadTargets is the file or directory a grep call searches.
func (*Grep) ReadTargets(call tools.Call) []string {
	var a struct {
		Path string `json:"path"`
	}
	_ = json.Unmarshal(call.Args, &a)
	return []string{orCwd(a.Path)}
}

// orCwd is dir, or "." (the working directory) when it is empty.
func orCwd(dir string) string {
	if dir == "" {
		return "."
	}
	return dir
}
