module github.com/ardanlabs/kronk
