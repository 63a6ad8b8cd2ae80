// The FFTW wrappers: buffers, plans (move-only, new-array execution, misuse checks), wisdom, fast lengths.
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <unistd.h>
#include <vector>

#include <gtest/gtest.h>

#include <itch5/tde/fft/fast_length.hpp>
#include <itch5/tde/fft/fft_buffer.hpp>
#include <itch5/tde/fft/fft_plan.hpp>
#include <itch5/tde/fft/fft_wisdom.hpp>
#include <itch5/tde/fft/wisdom_file.hpp>

namespace {

template <class T>
class fft_test : public ::testing::Test {};
using real_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(fft_test, real_types);

template <class T>
double tolerance() {
  return std::is_same_v<T, float> ? 1e-4 : 1e-10;
}

// The textbook O(n^2) DFT in long double, bins 0..n/2.
template <class T>
std::vector<std::complex<long double>> direct_dft(const std::vector<T>& x) {
  const std::size_t n = x.size();
  std::vector<std::complex<long double>> out(n / 2 + 1);
  for (std::size_t k = 0; k < out.size(); ++k) {
    std::complex<long double> s = 0;
    for (std::size_t j = 0; j < n; ++j) {
      long double angle = -2 * std::numbers::pi_v<long double> * static_cast<long double>((k * j) % n) /
                          static_cast<long double>(n);
      s += static_cast<long double>(x[j]) * std::polar(1.0L, angle);
    }
    out[k] = s;
  }
  return out;
}

template <class T>
std::vector<T> random_vector(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> d(-1, 1);
  std::vector<T> v(n);
  for (auto& x : v) x = static_cast<T>(d(rng));
  return v;
}

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("tde_test_" + std::to_string(::getpid()) + "_" + name))
      .string();
}

TYPED_TEST(fft_test, buffers_are_aligned_zeroed_and_move_only) {
  using T = TypeParam;
  static_assert(!std::is_copy_constructible_v<itch5::tde::fft_buffer<T>>);
  static_assert(!std::is_copy_assignable_v<itch5::tde::fft_buffer<T>>);
  static_assert(std::is_nothrow_move_constructible_v<itch5::tde::fft_buffer<T>>);
  itch5::tde::fft_buffer<T> a(1001);
  ASSERT_EQ(a.size(), 1001u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % 16, 0u);
  for (T v : a) EXPECT_EQ(v, T(0));
  itch5::tde::fft_buffer<std::complex<T>> c(7);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(c.data()) % 16, 0u);
  EXPECT_EQ(c[6], std::complex<T>(0, 0));

  a[3] = T(42);
  T* p = a.data();
  itch5::tde::fft_buffer<T> b(std::move(a));
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b[3], T(42));
  EXPECT_TRUE(a.empty());  // NOLINT(bugprone-use-after-move): the moved-from state is specified
  EXPECT_EQ(a.data(), nullptr);
  itch5::tde::fft_buffer<T> d(5);
  d = std::move(b);
  EXPECT_EQ(d.size(), 1001u);
  EXPECT_EQ(d[3], T(42));
}

TYPED_TEST(fft_test, r2c_matches_the_direct_dft_for_even_and_odd_lengths) {
  using T = TypeParam;
  for (std::size_t n : {1u, 2u, 12u, 35u, 64u, 105u}) {
    auto x = random_vector<T>(n, static_cast<unsigned>(n));
    itch5::tde::fft_buffer<T> in(n);
    itch5::tde::fft_buffer<std::complex<T>> out(n / 2 + 1);
    itch5::tde::r2c_plan<T> plan(n, in.span(), out.span());
    std::copy(x.begin(), x.end(), in.begin());
    plan.execute(in.span(), out.span());
    auto expected = direct_dft(x);
    for (std::size_t k = 0; k < expected.size(); ++k) {
      EXPECT_NEAR(out[k].real(), static_cast<double>(expected[k].real()),
                  tolerance<T>() * static_cast<double>(n))
          << "n=" << n << " k=" << k;
      EXPECT_NEAR(out[k].imag(), static_cast<double>(expected[k].imag()),
                  tolerance<T>() * static_cast<double>(n))
          << "n=" << n << " k=" << k;
    }
    for (std::size_t i = 0; i < n; ++i) EXPECT_EQ(in[i], x[i]) << "r2c must not modify its input";
  }
}

TYPED_TEST(fft_test, c2r_of_r2c_is_n_times_the_input) {
  using T = TypeParam;
  const std::size_t n = 360;
  auto x = random_vector<T>(n, 7);
  itch5::tde::fft_buffer<T> in(n), back(n);
  itch5::tde::fft_buffer<std::complex<T>> spec(n / 2 + 1);
  itch5::tde::r2c_plan<T> fwd(n, in.span(), spec.span(), itch5::tde::plan_rigor::measure);
  itch5::tde::c2r_plan<T> inv(n, spec.span(), back.span(), itch5::tde::plan_rigor::measure);
  std::copy(x.begin(), x.end(), in.begin());  // after planning: measure overwrites the arrays
  fwd.execute(in.span(), spec.span());
  inv.execute(spec.span(), back.span());
  for (std::size_t i = 0; i < n; ++i) {
    EXPECT_NEAR(static_cast<double>(back[i]) / static_cast<double>(n), static_cast<double>(x[i]),
                tolerance<T>());
  }
}

TYPED_TEST(fft_test, one_plan_executes_on_other_buffers_of_the_same_size) {
  using T = TypeParam;
  const std::size_t n = 48;
  itch5::tde::fft_buffer<T> plan_in(n);
  itch5::tde::fft_buffer<std::complex<T>> plan_out(n / 2 + 1);
  itch5::tde::r2c_plan<T> plan(n, plan_in.span(), plan_out.span());
  for (unsigned seed = 1; seed <= 3; ++seed) {
    auto x = random_vector<T>(n, seed);
    itch5::tde::fft_buffer<T> in(n);
    itch5::tde::fft_buffer<std::complex<T>> out(n / 2 + 1);
    std::copy(x.begin(), x.end(), in.begin());
    plan.execute(in.span(), out.span());
    auto expected = direct_dft(x);
    for (std::size_t k = 0; k < expected.size(); ++k) {
      auto error = std::abs(std::complex<long double>(out[k].real(), out[k].imag()) - expected[k]);
      EXPECT_NEAR(static_cast<double>(error), 0.0, tolerance<T>() * 50);
    }
    for (auto v : plan_out) EXPECT_EQ(v, std::complex<T>(0, 0)) << "the planning buffers are not touched";
  }
}

TYPED_TEST(fft_test, plans_are_move_only_and_a_moved_plan_still_works) {
  using T = TypeParam;
  static_assert(!std::is_copy_constructible_v<itch5::tde::r2c_plan<T>>);
  static_assert(!std::is_copy_assignable_v<itch5::tde::c2r_plan<T>>);
  static_assert(std::is_nothrow_move_constructible_v<itch5::tde::r2c_plan<T>>);
  static_assert(std::is_nothrow_move_assignable_v<itch5::tde::c2r_plan<T>>);
  const std::size_t n = 16;
  itch5::tde::fft_buffer<T> in(n);
  itch5::tde::fft_buffer<std::complex<T>> out(n / 2 + 1);
  itch5::tde::r2c_plan<T> a(n, in.span(), out.span());
  itch5::tde::r2c_plan<T> b(std::move(a));
  EXPECT_FALSE(static_cast<bool>(a));  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.size(), 0u);
  EXPECT_THROW(a.execute(in.span(), out.span()), std::invalid_argument);
  ASSERT_TRUE(static_cast<bool>(b));
  EXPECT_EQ(b.size(), n);
  in[0] = T(1);  // an impulse: flat spectrum of ones
  b.execute(in.span(), out.span());
  for (auto v : out) EXPECT_NEAR(std::abs(v - std::complex<T>(1, 0)), 0.0, tolerance<T>());
  itch5::tde::r2c_plan<T> c;
  c = std::move(b);
  EXPECT_FALSE(static_cast<bool>(b));  // NOLINT(bugprone-use-after-move)
  EXPECT_NO_THROW(c.execute(in.span(), out.span()));
}

TYPED_TEST(fft_test, execute_rejects_wrong_sizes_misalignment_and_in_place) {
  using T = TypeParam;
  const std::size_t n = 64;
  itch5::tde::fft_buffer<T> in(n + 1), back(n);
  itch5::tde::fft_buffer<std::complex<T>> out(n / 2 + 1);
  itch5::tde::r2c_plan<T> plan(n, std::span<T>(in.data(), n), out.span());
  EXPECT_THROW(plan.execute(std::span<const T>(in.data(), n - 1), out.span()), std::invalid_argument);
  EXPECT_THROW(plan.execute(std::span<const T>(in.data(), n), out.span().first(n / 2)),
               std::invalid_argument);
  // One element in: the real array loses fftw_malloc's SIMD alignment.
  EXPECT_THROW(plan.execute(std::span<const T>(in.data() + 1, n), out.span()), std::invalid_argument);
  EXPECT_NO_THROW(plan.execute(std::span<const T>(in.data(), n), out.span()));
  itch5::tde::c2r_plan<T> inv(n, out.span(), back.span());
  EXPECT_THROW(inv.execute(out.span(), std::span<T>(reinterpret_cast<T*>(out.data()), n)),
               std::invalid_argument);
  EXPECT_THROW(itch5::tde::r2c_plan<T>(0, in.span(), out.span()), std::invalid_argument);
  EXPECT_THROW(itch5::tde::r2c_plan<T>(n, in.span(), out.span().first(3)), std::invalid_argument);
}

TYPED_TEST(fft_test, wisdom_round_trips_through_a_file) {
  using T = TypeParam;
  const std::size_t n = 1260;  // 2^2 3^2 5 7
  itch5::tde::fft_buffer<T> in(n);
  itch5::tde::fft_buffer<std::complex<T>> out(n / 2 + 1);
  auto wisdom_only_plan = [&] {
    return itch5::tde::r2c_plan<T>(n, in.span(), out.span(), itch5::tde::plan_rigor::measure, true);
  };

  itch5::tde::forget_wisdom<T>();
  EXPECT_THROW(wisdom_only_plan(), std::runtime_error) << "no wisdom yet";
  { itch5::tde::r2c_plan<T> measured(n, in.span(), out.span(), itch5::tde::plan_rigor::measure); }
  EXPECT_NO_THROW(wisdom_only_plan()) << "measuring leaves wisdom behind";

  const std::string path = temp_path(std::string("wisdom_") + (std::is_same_v<T, float> ? "f" : "d"));
  itch5::tde::export_wisdom<T>(path);
  ASSERT_TRUE(std::filesystem::exists(path));
  itch5::tde::forget_wisdom<T>();
  EXPECT_THROW(wisdom_only_plan(), std::runtime_error) << "forgotten";
  EXPECT_TRUE(itch5::tde::import_wisdom<T>(path));
  EXPECT_NO_THROW(wisdom_only_plan()) << "restored from the file";

  // The other precision's planner does not accept this file.
  using other = std::conditional_t<std::is_same_v<T, float>, double, float>;
  EXPECT_THROW(itch5::tde::import_wisdom<other>(path), std::runtime_error);
  std::filesystem::remove(path);

  EXPECT_FALSE(itch5::tde::import_wisdom<T>(path)) << "a missing file is the first run, not an error";
  {
    std::ofstream junk(path);
    junk << "not wisdom\n";
  }
  EXPECT_THROW(itch5::tde::import_wisdom<T>(path), std::runtime_error);
  std::filesystem::remove(path);
}

// Sets an environment variable for one scope, then puts back what was there.
class scoped_env {
 public:
  scoped_env(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value != nullptr) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~scoped_env() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(wisdom_file, a_chosen_file_none_or_the_cache_of_the_precision) {
  using itch5::tde::wisdom_file;
  EXPECT_TRUE(wisdom_file::of("none", "double").path.empty());
  EXPECT_EQ(wisdom_file::of("w.txt", "double").path, "w.txt");
  EXPECT_TRUE(wisdom_file::of("w.txt", "double").chosen);
  {
    scoped_env xdg("XDG_CACHE_HOME", "/cache"), home("HOME", "/home/u");
    EXPECT_EQ(wisdom_file::of("", "float").path, "/cache/itch5/fftw-wisdom-float");
    EXPECT_FALSE(wisdom_file::of("", "float").chosen);
  }
  {
    scoped_env xdg("XDG_CACHE_HOME", "relative"), home("HOME", "/home/u");
    EXPECT_EQ(wisdom_file::of("", "double").path, "/home/u/.cache/itch5/fftw-wisdom-double");
  }
  {
    scoped_env xdg("XDG_CACHE_HOME", nullptr), home("HOME", nullptr);
    EXPECT_TRUE(wisdom_file::of("", "double").path.empty());
  }
}

// The cache's errors are never errors: a file that is not wisdom is ignored, a directory that cannot be
// made is a reason returned; a chosen file's are errors naming it.
TEST(wisdom_file, the_cache_forgives_what_a_chosen_file_does_not) {
  const std::string dir = temp_path("wisdom_dir");
  std::filesystem::create_directories(dir);
  const std::string junk = dir + "/junk";
  {
    std::ofstream out(junk);
    out << "not wisdom\n";
  }
  EXPECT_FALSE(itch5::tde::load_wisdom<double>({junk, false}));
  try {
    (void)itch5::tde::load_wisdom<double>({junk, true});
    ADD_FAILURE() << "a chosen file that is not wisdom loaded";
  } catch (const std::runtime_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind(junk + ": not FFTW wisdom", 0), 0u) << e.what();
  }
  // A cache under a directory that does not exist yet is made; one under a regular file cannot be.
  const itch5::tde::wisdom_file cache{dir + "/new/itch5/fftw-wisdom-double", false};
  EXPECT_EQ(itch5::tde::save_wisdom<double>(cache), "");
  EXPECT_TRUE(std::filesystem::exists(cache.path));
  EXPECT_TRUE(itch5::tde::load_wisdom<double>(cache));
  EXPECT_NE(itch5::tde::save_wisdom<double>({junk + "/itch5/fftw-wisdom-double", false}), "");
  const itch5::tde::wisdom_file chosen{junk + "/w", true};
  EXPECT_THROW(chosen.check_directory(), std::runtime_error);
  EXPECT_THROW((void)itch5::tde::load_wisdom<double>(chosen), std::runtime_error);
  EXPECT_THROW((void)itch5::tde::save_wisdom<double>(chosen), std::runtime_error);
  EXPECT_TRUE(itch5::tde::save_wisdom<double>({}).empty());
  EXPECT_FALSE(itch5::tde::load_wisdom<double>({}));
  std::filesystem::remove_all(dir);
}

TEST(plan_rigor, parses_its_names) {
  for (auto r : {itch5::tde::plan_rigor::estimate, itch5::tde::plan_rigor::measure,
                 itch5::tde::plan_rigor::patient, itch5::tde::plan_rigor::exhaustive}) {
    EXPECT_EQ(itch5::tde::parse_plan_rigor(itch5::tde::to_string(r)), r);
  }
  EXPECT_THROW((void)itch5::tde::parse_plan_rigor("quick"), std::invalid_argument);
}

// Largest prime factor by trial division, independent of the library's code.
std::size_t largest_prime_factor(std::size_t n) {
  std::size_t largest = 1;
  for (std::size_t p = 2; p * p <= n; ++p) {
    while (n % p == 0) {
      largest = p;
      n /= p;
    }
  }
  return n > 1 ? std::max(largest, n) : largest;
}

TEST(fast_length, is_the_smallest_7_smooth_number_not_below_n) {
  std::size_t expected = 1;
  for (std::size_t n = 1; n <= 20000; ++n) {
    if (expected < n) {
      expected = n;
      while (largest_prime_factor(expected) > 7) ++expected;
    }
    ASSERT_EQ(itch5::tde::next_fast_length(n), expected) << "n=" << n;
  }
  EXPECT_EQ(itch5::tde::next_fast_length(0), 1u);
  const std::size_t big = (std::size_t{1} << 40) + 1;
  std::size_t m = itch5::tde::next_fast_length(big);
  EXPECT_GE(m, big);
  EXPECT_LE(largest_prime_factor(m), 7u);
  EXPECT_LT(m, big + big / 50);
}

}  // namespace
