module github.com/agentable/go-intl
