enum _PlaceholderPoolSizeKit {}
