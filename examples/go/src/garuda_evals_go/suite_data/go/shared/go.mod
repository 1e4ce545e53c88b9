module example.com/shop

go 1.21

require github.com/google/go-cmp v0.6.0
