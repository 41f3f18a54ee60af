module isolato.dev/openloop

go 1.26
