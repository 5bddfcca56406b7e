package bash

import "strings"

// providerSecret reports whether key holds the credential of a model
// provider that tack or its peers read, or the client secret /mcp login
// reads (MCP_CLIENT_SECRET). Those are removed from every command's
// environment so that nothing the model runs can print them.
func providerSecret(key string) bool {
	switch key {
	case "DEEPSEEK_API_KEY",
		"OPENAI_API_KEY",
		"ANTHROPIC_API_KEY",
		"ANTHROPIC_AUTH_TOKEN",
		"AZURE_OPENAI_API_KEY",
		"GEMINI_API_KEY",
		"GOOGLE_API_KEY",
		"GOOGLE_GENERATIVE_AI_API_KEY",
		"MISTRAL_API_KEY",
		"GROQ_API_KEY",
		"XAI_API_KEY",
		"OPENROUTER_API_KEY",
		"TOGETHER_API_KEY",
		"FIREWORKS_API_KEY",
		"PERPLEXITY_API_KEY",
		"COHERE_API_KEY",
		"DASHSCOPE_API_KEY",
		"MOONSHOT_API_KEY",
		"ZHIPU_API_KEY",
		"SILICONFLOW_API_KEY",
		"HF_TOKEN",
		"HUGGING_FACE_HUB_TOKEN",
		"TACK_API_KEY",
		"MCP_CLIENT_SECRET":
		return true
	}
	return false
}

// commandEnv is the environment of a command: parent minus provider secrets
// and minus the variables tack sets, then tack's own settings, which keep
// output plain (no colour, no pager), name the session, and make every
// editor "true": a command has no terminal and empty stdin, so an editor
// it opens (git commit without -m, git rebase --continue, crontab -e)
// would wait for keys that never come until the timeout. With true, git
// takes its default message, or aborts a commit for want of one, at once,
// as it does under pi and crush.
func commandEnv(parent []string, sessionID string) []string {
	set := [][2]string{
		{"NO_COLOR", "1"},
		{"TERM", "dumb"},
		{"PAGER", "cat"},
		{"GIT_PAGER", "cat"},
		{"GIT_EDITOR", "true"},
		{"GIT_SEQUENCE_EDITOR", "true"},
		{"EDITOR", "true"},
		{"VISUAL", "true"},
		{"TACK_SESSION_ID", sessionID},
	}
	ours := map[string]bool{}
	for _, kv := range set {
		ours[kv[0]] = true
	}
	env := make([]string, 0, len(parent)+len(set))
	for _, e := range parent {
		k, _, _ := strings.Cut(e, "=")
		if !ours[k] && !providerSecret(k) {
			env = append(env, e)
		}
	}
	for _, kv := range set {
		env = append(env, kv[0]+"="+kv[1])
	}
	return env
}
