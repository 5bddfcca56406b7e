package llm

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestDecodeChunkAgreesWithEncodingJSON pins the hand-written scanner to
// encoding/json on the shapes servers send, and on broken input.
func TestDecodeChunkAgreesWithEncodingJSON(t *testing.T) {
	valid := []string{
		`{"id":"x","object":"chat.completion.chunk","created":1764661832,"model":"m","system_fingerprint":"fp","choices":[{"index":0,"delta":{"role":"assistant","content":null,"reasoning_content":""},"logprobs":null,"finish_reason":null}],"usage":null}`,
		`{"choices":[{"delta":{"content":"say \"hi\"\n\u00e9\ud83d\ude00 \\ /"},"finish_reason":"stop"}],"usage":{"prompt_tokens":18,"completion_tokens":219,"prompt_tokens_details":{"cached_tokens":0},"completion_tokens_details":{"reasoning_tokens":205},"prompt_cache_hit_tokens":0,"prompt_cache_miss_tokens":18}}`,
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_1","type":"function","function":{"name":"f","arguments":"{\"a\":[1,2]}"}}]},"logprobs":{"content":[{"token":"x","bytes":[1,2]}]},"finish_reason":null}]}`,
		` { "choices" : [ ] , "usage" : null , "extra" : [ true , false , -1.5e3 , { } ] } `,
		`{"choices":[],"error":{"message":"boom","type":"server_error","code":500}}`,
		`{"choices":[{"delta":{"reasoning":"think"}}]}`,
		`{"usage":{"prompt_tokens":"many","completion_tokens":-3}}`,
		`{"usage":"n/a"}`,
		`{"choices":[{"delta":{"content":[{"type":"thinking","thinking":[{"type":"text","text":"hm"}]},{"type":"text","text":"3"},{"type":"image_url"}]}}]}`,
		`{"choices":[{"delta":{"content":[{"type":"thinking","thinking":"plain"}]}}]}`,
		`{"object":"error","message":"This model's maximum context length is 4096 tokens.","type":"BadRequestError","code":400}`,
		`{"choices":[{"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":{"a": [1, 2]}}}]}}]}`,
	}
	for _, in := range valid {
		var got, want wireChunk
		if err := decodeChunk([]byte(in), &got); err != nil {
			t.Errorf("decodeChunk(%s): want success, got %v", in, err)
			continue
		}
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if len(want.Choices) == 0 {
			want.Choices = nil // an empty array and no array decode the same
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("decodeChunk(%s):\nwant %+v\ngot  %+v", in, want, got)
		}
	}
	invalid := []string{
		``, `{`, `{"choices":[{"delta":{"content":"cut`, `{"choices":[}`, `{"a" 1}`, `{"a":1,}x`, `{"a":1} trailing`,
		`{"choices":[{"delta":{"content":"bad \x escape"}}]}`, `{"a":}`, `{"choices":[{"delta":{"content":{"text":"x"}}}]}`,
	}
	for _, in := range invalid {
		var got wireChunk
		if err := decodeChunk([]byte(in), &got); err == nil {
			t.Errorf("decodeChunk(%q): want an error, got %+v", in, got)
		}
	}
}
