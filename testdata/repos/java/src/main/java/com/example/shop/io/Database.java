package com.example.shop.io;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Persists lines of text to a file, and mirrors them to a backup host. */
public class Database {
    private static final String DEFAULT_DIR = "/var/lib/shop";

    private final Path file;

    public Database(Path file) {
        this.file = file;
    }

    /** Opens the database named by the SHOP_DB environment variable. */
    public static Database fromEnv() {
        String dir = System.getenv("SHOP_DB");
        if (dir == null) {
            dir = DEFAULT_DIR;
        }
        return new Database(Path.of(dir, "shop.db"));
    }

    public void save(List<String> lines) throws IOException {
        Files.writeString(file, String.join("\n", lines));
    }

    public List<String> load() throws IOException {
        return Files.readAllLines(file);
    }

    void mirror(String host) throws IOException {
        try (Socket s = new Socket(host, 7070)) {
            s.getOutputStream().write(Files.readAllBytes(file));
        }
    }

    void compact() throws IOException, InterruptedException {
        Process p = new ProcessBuilder("gzip", file.toString()).start();
        p.waitFor();
    }
}
