enum _PlaceholderPoolSizeOutput {}
