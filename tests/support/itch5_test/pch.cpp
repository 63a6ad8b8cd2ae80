// The translation unit that makes the test executables' shared precompiled header (tests/CMakeLists.txt,
// itch5_test_pch): the header is CMake's, made from the list there; this file only gives the target a
// source to compile.
