"""The contract below the nodes: typed state (Update generated from it), Context, input checks."""
