module foldkit/pprofwork

go 1.19
