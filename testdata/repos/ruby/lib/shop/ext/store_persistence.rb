require "fileutils"

module Shop
  # Saving and loading, reopened from store.rb.
  class Store
    def save(path)
      FileUtils.mkdir_p(File.dirname(path))
      File.write(path, map { |i| "#{i.name},#{i.price}" }.join("\n"))
      log("saved to #{path}")
    end

    def self.load(path)
      store = new(File.basename(path, ".csv"))
      File.readlines(path, chomp: true).each do |line|
        store.add(Models::Item.parse(line))
      end
      store
    end
  end
end
