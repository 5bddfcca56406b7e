package config

import (
	"bufio"
	"bytes"
	"fmt"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// unknownSettingError names the first setting of the config file at path
// that tack does not know, with its line and the closest known setting.
// The toml decoder reports unknown keys without their position, so the line
// is found in src by the key's table and name.
func unknownSettingError(path string, src []byte, key toml.Key) error {
	where := path
	if line := keyLine(src, key); line > 0 {
		where = fmt.Sprintf("%s line %d", path, line)
	}
	msg := fmt.Sprintf("config file %s: unknown setting %q", where, key.String())
	if near := nearestSetting(key); near != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", near)
	}
	return fmt.Errorf("%s; fix or remove it (README.md lists the settings)", msg)
}

// keyLine is the 1-based line of src that defines key, or 0 when it cannot
// be told: the first line whose key, with the table header above it,
// spells key.
func keyLine(src []byte, key toml.Key) int {
	want := key.String()
	table := ""
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		switch {
		case strings.HasPrefix(line, "["):
			table = unquoteKey(strings.Trim(line, "[] \t"))
			if table == want {
				return n
			}
		case strings.Contains(line, "="):
			name := unquoteKey(line[:strings.Index(line, "=")])
			if table != "" {
				name = table + "." + name
			}
			if name == want {
				return n
			}
		}
	}
	return 0
}

// unquoteKey joins a possibly dotted, quoted TOML key with bare dots.
func unquoteKey(k string) string {
	parts := strings.Split(k, ".")
	for i, p := range parts {
		parts[i] = strings.Trim(strings.TrimSpace(p), `"'`)
	}
	return strings.Join(parts, ".")
}

// nearestSetting is the known setting at key's level closest in spelling
// to key's name, or "" when none is close.
func nearestSetting(key toml.Key) string {
	t := reflect.TypeFor[File]()
	switch {
	case len(key) == 2 && key[0] == "models":
		t = reflect.TypeFor[Model]()
	case len(key) == 2 && key[0] == "providers":
		t = reflect.TypeFor[Provider]()
	case len(key) != 1:
		return ""
	}
	name, best, bestDist := key[len(key)-1], "", 3
	for i := range t.NumField() {
		tag := strings.Split(t.Field(i).Tag.Get("toml"), ",")[0]
		if d := editDistance(name, tag); d < bestDist {
			best, bestDist = tag, d
		}
	}
	return best
}

// editDistance is the Levenshtein distance between a and b, in bytes.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}
