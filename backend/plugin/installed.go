package plugin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// InstalledFile is where Claude Code keeps the plugins it installed, under
// the user's home.
func InstalledFile(userHome string) string {
	return filepath.Join(userHome, ".claude", "plugins", "installed_plugins.json")
}

// install is one record of installed_plugins.json: where a plugin is, and
// for whom (scope "user", or "project" and "local" for projectPath).
type install struct {
	Scope       string `json:"scope"`
	InstallPath string `json:"installPath"`
	ProjectPath string `json:"projectPath"`
}

// installs is a plugin's records: a list (the file's version 2) or one
// record (version 1).
type installs []install

func (is *installs) UnmarshalJSON(b []byte) error {
	var one install
	if json.Unmarshal(b, &one) == nil && one.InstallPath != "" {
		*is = installs{one}
		return nil
	}
	var many []install
	if err := json.Unmarshal(b, &many); err != nil {
		return errors.New("a plugin's installs should be a list of objects with installPath")
	}
	*is = many
	return nil
}

// Installed are the plugins of enabled ("name@marketplace") that Claude
// Code installed under userHome for everyone (scope user) or for the
// project at cwd, in enabled's order. A plugin enabled but not installed,
// or that cannot be read, is a problem and is left out.
func Installed(userHome, cwd string, enabled []string) ([]Plugin, []string) {
	if len(enabled) == 0 || userHome == "" {
		return nil, nil
	}
	path := InstalledFile(userHome)
	src, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, []string{fmt.Sprintf("the settings turn plugins on, but %s is missing; install them with Claude Code (/plugin)", path)}
	}
	if err != nil {
		return nil, []string{fmt.Sprintf("%s: %v; the plugins are skipped", path, err)}
	}
	var file struct {
		Plugins map[string]installs `json:"plugins"`
	}
	if err := json.Unmarshal(src, &file); err != nil {
		return nil, []string{fmt.Sprintf("%s: %v; the plugins are skipped", path, err)}
	}
	var out []Plugin
	var problems []string
	for _, key := range enabled {
		i := slices.IndexFunc(file.Plugins[key], func(in install) bool {
			return in.Scope == "" || in.Scope == "user" || in.ProjectPath == cwd
		})
		if i < 0 {
			if _, known := file.Plugins[key]; !known {
				problems = append(problems, fmt.Sprintf("plugin %s is enabled but not installed; install it with Claude Code (/plugin)", key))
			}
			continue
		}
		p, err := Load(file.Plugins[key][i].InstallPath)
		if err != nil {
			problems = append(problems, fmt.Sprintf("plugin %s: %v; reinstall it with Claude Code (/plugin); the plugin is skipped", key, err))
			continue
		}
		out = append(out, p)
	}
	return out, problems
}
