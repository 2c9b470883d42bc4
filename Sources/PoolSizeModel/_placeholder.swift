enum _PlaceholderPoolSizeModel {}
