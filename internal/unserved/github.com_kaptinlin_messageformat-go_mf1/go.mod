module github.com/kaptinlin/messageformat-go/mf1
