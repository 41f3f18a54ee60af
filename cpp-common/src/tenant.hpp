// Tenant model: what one tenant's request costs and how fast the tenant may send them.
// Pure data, no I/O: parsed from JSON by tenant_json, held by tenant_registry.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

namespace saasbench {

// The stress work of one request, in the units documented in docs/saas-bench.md.
struct Profile {
  std::uint32_t cpu = 0;     // rounds of 10,000 xorshift steps
  std::uint32_t memory = 0;  // KiB allocated, written and read back
  std::uint32_t io = 0;      // 4 KiB blocks written with one pwrite each
  bool fsync = false;        // fdatasync the written blocks
  bool empty() const { return cpu == 0 && memory == 0 && io == 0; }
  bool operator==(const Profile&) const = default;
};

struct TenantSpec {
  Profile profile;
  std::optional<double> rate_rps;  // admitted requests/s; absent = not rate limited
  double burst = 1;                // token bucket depth (requests)
  bool operator==(const TenantSpec&) const = default;
};

struct TenantTableSpec {
  std::string version;
  std::map<std::string, TenantSpec, std::less<>> tenants;
  // Rises with every table the controller writes (the SloPool's generation): orders a file the
  // kubelet refreshes late behind a newer push. Absent in hand-written tables.
  std::optional<std::uint64_t> revision;
  bool operator==(const TenantTableSpec&) const = default;
};

// Bounds that keep one request (and one table) from taking down a pod.
namespace limits {
inline constexpr std::uint32_t kMaxCpu = 100'000;     // ~ seconds of CPU
inline constexpr std::uint32_t kMaxMemory = 262'144;  // 256 MiB
inline constexpr std::uint32_t kMaxIo = 16'384;       // 64 MiB
inline constexpr double kMaxRate = 1'000'000;
inline constexpr double kMaxBurst = 1'000'000;
inline constexpr std::size_t kMaxTenants = 10'000;
inline constexpr std::size_t kMaxIdLength = 63;
inline constexpr std::size_t kMaxVersionLength = 128;
inline constexpr std::uint64_t kMaxRevision = (std::uint64_t{1} << 53) - 1;  // exact in JSON and Java
}  // namespace limits

// Tenant ids are Kubernetes-name-like: [a-z0-9A-Z] first, then [a-zA-Z0-9._-], at most 63.
bool valid_tenant_id(std::string_view id);

}  // namespace saasbench
