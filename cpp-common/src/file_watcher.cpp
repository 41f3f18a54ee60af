#include "file_watcher.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "log.hpp"

namespace saasbench {

namespace {
constexpr std::size_t kMaxFileBytes = 64 << 20;  // far above any table; a wrong mount is an error

std::int64_t nanoseconds(const struct ::timespec& t) { return std::int64_t{t.tv_sec} * 1'000'000'000 + t.tv_nsec; }
}  // namespace

std::optional<std::string> read_whole_file(const std::filesystem::path& path, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  std::string text;
  char chunk[8192];
  for (;;) {
    const ::ssize_t n = ::read(fd, chunk, sizeof chunk);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || text.size() + static_cast<std::size_t>(n) > kMaxFileBytes) {
      error = n < 0 ? std::strerror(errno) : "larger than " + std::to_string(kMaxFileBytes) + " bytes";
      ::close(fd);
      return std::nullopt;
    }
    if (n == 0) break;
    text.append(chunk, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return text;
}

FileWatcher::FileWatcher(std::filesystem::path file, FileHandler handler)
    : file_(std::move(file)), handler_(std::move(handler)) {}

FileWatcher::~FileWatcher() {
  {
    std::lock_guard lock(mutex_);
    stop_ = true;
  }
  stop_cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

FileWatcher::Outcome FileWatcher::check_now() {
  struct ::stat st {};
  if (::stat(file_.c_str(), &st) != 0) {
    if (!reported_missing_) {  // once per disappearance, not once per poll
      log_line("warn",
               handler_.what + " file " + file_.string() + " is missing; the active " + handler_.what + " stays");
      handler_.counted(false);
      reported_missing_ = true;
    }
    last_.reset();
    return Outcome::missing;
  }
  reported_missing_ = false;
  const Stamp stamp{st.st_dev, st.st_ino, static_cast<std::uintmax_t>(st.st_size), nanoseconds(st.st_mtim),
                    nanoseconds(st.st_ctim)};
  if (last_ && *last_ == stamp) return Outcome::unchanged;
  last_ = stamp;
  std::string error;
  const auto text = read_whole_file(file_, error);
  const auto result = text ? handler_.apply(*text) : FileHandler::Result{false, "cannot read it: " + error};
  handler_.counted(result.applied);
  if (!result.applied) {
    log_line("warn", handler_.what + " file " + file_.string() + " rejected, the active " + handler_.what +
                         " stays: " + result.message);
    return Outcome::rejected;
  }
  log_line("info", handler_.what + " applied from " + file_.string() + ": " + result.message);
  return Outcome::applied;
}

void FileWatcher::start(std::chrono::milliseconds interval) {
  thread_ = std::thread([this, interval] {
    std::unique_lock lock(mutex_);
    while (!stop_cv_.wait_for(lock, interval, [this] { return stop_; })) {
      lock.unlock();
      check_now();
      lock.lock();
    }
  });
}

}  // namespace saasbench
