package jsonscan

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// texts are JSON texts on the edges of the grammar: escapes, surrogates,
// invalid UTF-8, control characters, numbers and literals.
var texts = []string{
	`"plain"`, `""`, `"say \"hi\"\n\t\\ \/ \b\f\r"`, `"\u00e9\u00E9 \ud83d\ude00"`, `"\ud83d"`, `"\ude00\ud83d"`,
	`"\ud83d\u0041"`, `"\ud83dx\ude00"`, `"\ud83d\ud83d\ude00"`, `"\uFFFD"`, "\"a\xffb\"", "\"\xc3\"", "\"\xed\xa0\x80\"",
	"\"\xf0\x9f\x98\"", "\"tab\there\"", "\"a\x01\"", `"\'"`, `"\x"`, `"\u12"`, `"\u12G4"`, `"cut`, `"\"`, `"\\"`,
	"\"é 😀 long enough to take the eight-byte steps\"", "\"é 😀 long enough \xff to take the eight-byte steps\"",
	`0`, `-0`, `1`, `-12`, `01`, `1.5`, `1.`, `.5`, `-`, `- 1`, `1e3`, `1E+3`, `1e-3`, `1e`, `123456789012345678`,
	`1234567890123456789`, `true`, `false`, `null`, `nul`, `tru`, `[]`, `[1,2]`, `[1,]`, `[,1]`, `{}`, `{"a":1}`,
	`{"a":1,}`, `{"a" 1}`, `{a:1}`, `{"\u0061":[{"b":null}]}`, ` { "a" : [ true , false , -1.5e3 , { } ] } `, ``, ` `,
}

// TestStrDecodesAsEncodingJSON pins Str, with and without an arena, to
// encoding/json's decoding of a string.
func TestStrDecodesAsEncodingJSON(t *testing.T) {
	for _, in := range texts {
		want, wantErr := unmarshalString([]byte(in))
		for _, text := range []*Arena{nil, new(Arena)} {
			s := New([]byte(in), text)
			got := s.Str()
			s.End()
			if s.Failed() != (wantErr != nil) || !s.Failed() && got != want {
				t.Errorf("Str(%q), arena %v: want %q (error %v), got %q (failed %v)",
					in, text != nil, want, wantErr, got, s.Failed())
			}
		}
	}
}

// TestLenMeasuresWhatStrDecodes pins Len to encoding/json's decoding of a
// string: the same failures, and the length of the same string.
func TestLenMeasuresWhatStrDecodes(t *testing.T) {
	for _, in := range texts {
		checkLen(t, []byte(in))
	}
}

func checkLen(t *testing.T, in []byte) {
	t.Helper()
	want, wantErr := unmarshalString(in)
	s := New(in, nil)
	got := s.Len()
	s.End()
	if s.Failed() != (wantErr != nil) || !s.Failed() && got != len(want) {
		t.Errorf("Len(%q): want %d (error %v), got %d (failed %v)", in, len(want), wantErr, got, s.Failed())
	}
}

// unmarshalString decodes in as a string with encoding/json. A null,
// which encoding/json takes as leaving the string alone, is an error: Str
// leaves nulls to its caller.
func unmarshalString(in []byte) (string, error) {
	var out string
	if string(bytes.TrimSpace(in)) == "null" {
		return "", errors.New("null")
	}
	err := json.Unmarshal(in, &out)
	return out, err
}

// TestSkipValidatesAsEncodingJSON pins Skip to json.Valid.
func TestSkipValidatesAsEncodingJSON(t *testing.T) {
	for _, in := range texts {
		checkSkip(t, []byte(in))
	}
}

func checkSkip(t *testing.T, in []byte) {
	t.Helper()
	s := New(in, nil)
	s.Skip()
	s.End()
	if want := json.Valid(in); s.Failed() == want {
		t.Errorf("Skip(%q): want valid %v, got failed %v", in, want, s.Failed())
	}
}

// TestInt64ReadsIntegersOnly pins Int64 to encoding/json's decoding into an
// int64 where both succeed, and to failing on every fraction, exponent and
// integer of more than 18 digits.
func TestInt64ReadsIntegersOnly(t *testing.T) {
	for _, in := range texts {
		var want int64
		wantErr := json.Unmarshal([]byte(in), &want)
		s := New([]byte(in), nil)
		got := s.Int64()
		s.End()
		if !s.Failed() && (wantErr != nil || got != want) {
			t.Errorf("Int64(%q): want %d (error %v), got %d", in, want, wantErr, got)
		}
		if s.Failed() && wantErr == nil && in != "null" && len(strings.Trim(in, " -")) <= maxDigits {
			t.Errorf("Int64(%q): want %d, got a failure", in, want)
		}
	}
}

// TestObjectDecodesKeys pins that Object hands member every key decoded,
// escaped or not, and treats null as no keys.
func TestObjectDecodesKeys(t *testing.T) {
	s := New([]byte(`{"a":1,"\u0062":null,"c\"":"x","\ud800":true}`), nil)
	var keys []string
	s.Object(func(key []byte) { keys = append(keys, string(key)); s.Skip() })
	s.End()
	if got, want := strings.Join(keys, "|"), "a|b|c\"|\uFFFD"; s.Failed() || got != want {
		t.Errorf("want keys %q, got %q (failed %v)", want, got, s.Failed())
	}
	s = New([]byte(` null `), nil)
	s.Object(func([]byte) { t.Error("want no member for null, got one") })
	s.End()
	if s.Failed() {
		t.Error("want null taken as an object without keys, got a failure")
	}
}

// TestArenaHoldsEveryString pins that strings written to an arena stay
// unchanged as later ones fill and outgrow its chunks.
func TestArenaHoldsEveryString(t *testing.T) {
	var text Arena
	var got, want []string
	for i := range 2000 {
		body := strings.Repeat(string(rune('a'+i%26)), i%97) + "\\n\xff"
		s := New([]byte(`"`+body+`"`), &text)
		got = append(got, s.Str())
		want = append(want, strings.Repeat(string(rune('a'+i%26)), i%97)+"\n\uFFFD")
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d: want %q, got %q", i, want[i], got[i])
		}
	}
}

func TestScanTextRefusesControlCharactersAndFlagsEscapesAndInvalidUTF8(t *testing.T) {
	for _, tc := range []struct {
		in        string
		ok, valid bool
	}{
		{"", true, true}, {"plain ascii text of some length", true, true}, {"é and 😀 and ✓ past eight bytes", true, true},
		{"\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f\x7f", true, true}, {"\x1f", false, false}, {"12345678\x00", false, false},
		{"1234567\x01", false, false}, {" !\x1f#$%&'", false, false}, {"\x1f!\"#$%&'()", false, false},
		{"é\x1fé", false, false}, {`a\"b`, true, true}, {`eight bytes then \n, a backslash`, true, true}, {"abcdefgh\xff", true, false}, {"\xc3", true, false}, {"\xed\xa0\x80 surrogate", true, false},
	} {
		ok, escaped, valid := scanText([]byte(tc.in))
		if ok != tc.ok || valid != tc.valid || ok && escaped != strings.Contains(tc.in, `\`) {
			t.Errorf("scanText(%q): want %v %v %v, got %v %v %v", tc.in, tc.ok, strings.Contains(tc.in, `\`), tc.valid, ok, escaped, valid)
		}
	}
	for c := range 256 {
		for at := range 10 {
			in := []byte(strings.Repeat("a", at) + "bcdefghijk")
			in[at] = byte(c)
			ok, escaped, valid := scanText(in)
			if ok != (c >= ' ') || ok && (valid != (c < utf8.RuneSelf) || escaped != (c == '\\')) {
				t.Errorf("scanText(%q): want ok %v escaped %v valid %v, got %v %v %v", in, c >= ' ', c == '\\', c < utf8.RuneSelf, ok, escaped, valid)
			}
		}
	}
}

// FuzzScanner checks Str, Len and Skip against encoding/json on any input.
func FuzzScanner(f *testing.F) {
	for _, in := range texts {
		f.Add([]byte(in))
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		checkSkip(t, in)
		checkLen(t, in)
		want, wantErr := unmarshalString(in)
		s := New(in, new(Arena))
		got := s.Str()
		s.End()
		if s.Failed() != (wantErr != nil) || !s.Failed() && got != want {
			t.Fatalf("Str(%q): want %q (error %v), got %q (failed %v)", in, want, wantErr, got, s.Failed())
		}
	})
}
