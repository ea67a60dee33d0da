module github.com/coerce-go/coerce

go 1.24
