enum _PlaceholderPoolSizeStats {}
