# The consumer_package test: installs the build into a scratch prefix, builds tests/consumer against it
# (find_package(itch5 CONFIG)), checks that none of the project's own flags reached the consumer's compile
# commands, and runs the consumer on a sample file.
#   cmake -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... -DCXX=... -DBUILD_TYPE=...
#         -DLINK_FLAGS=... -DSAMPLE=... -P consumer_test.cmake
cmake_minimum_required(VERSION 3.25)
set(prefix ${WORK_DIR}/prefix)
set(consumer ${WORK_DIR}/build)
file(REMOVE_RECURSE ${WORK_DIR})

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${what} failed (${rc}):\n${out}\n${err}")
  endif()
  set(out "${out}" PARENT_SCOPE)
endfunction()

run("install" ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${prefix})
foreach(f lib/cmake/itch5/itch5Config.cmake lib/cmake/itch5/itch5ConfigVersion.cmake
          lib/cmake/itch5/itch5Targets.cmake include/itch5/messages.hpp include/itch5/book/book_engine.hpp
          bin/itch5inside bin/itch5cat bin/itch5synth bin/itch5tde)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "not installed: ${f}")
  endif()
endforeach()
# One include root: every room's headers under include/itch5/.
file(GLOB roots RELATIVE ${prefix}/include ${prefix}/include/*)
if(NOT roots STREQUAL "itch5")
  message(FATAL_ERROR "installed include roots: ${roots} (expected only itch5)")
endif()
# Internal headers (the rooms' src/) stay out of the installed tree.
file(GLOB_RECURSE internal ${prefix}/include/*/src/*)
if(internal)
  message(FATAL_ERROR "internal files installed: ${internal}")
endif()

# The consumer uses the same compiler; LINK_FLAGS carries the sanitizer runtime when the installed
# libraries were built with ITCH5_SANITIZE (the package does not impose our sanitizer flags on consumers).
run("consumer configure" ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${consumer} -G ${GENERATOR}
    -DCMAKE_CXX_COMPILER=${CXX} -DCMAKE_BUILD_TYPE=${BUILD_TYPE} -DCMAKE_PREFIX_PATH=${prefix}
    "-DCMAKE_EXE_LINKER_FLAGS=${LINK_FLAGS}")
file(READ ${consumer}/compile_commands.json commands)
foreach(flag -Wall -Wextra -Wpedantic -Wshadow -Wconversion -march=native -fsanitize)
  string(FIND "${commands}" "${flag}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "the project's flag ${flag} leaked into the consumer:\n${commands}")
  endif()
endforeach()
run("consumer build" ${CMAKE_COMMAND} --build ${consumer})
run("consumer run" ${consumer}/itch5_consumer ${SAMPLE})
message(STATUS "${out}")
if(NOT out MATCHES "^messages [1-9][0-9]* book-events [1-9][0-9]* inside-changes [1-9][0-9]*")
  message(FATAL_ERROR "unexpected consumer output: ${out}")
endif()
