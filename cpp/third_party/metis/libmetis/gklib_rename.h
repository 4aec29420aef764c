/*!
\file

 * Copyright 1997, Regents of the University of Minnesota
 *
 * This file contains header files
 *
 * Started 10/2/97
 * George
 *
 * $Id: gklib_rename.h 10395 2011-06-23 23:28:06Z karypis $
 *
 */


#ifndef _LIBMETIS_GKLIB_RENAME_H_
#define _LIBMETIS_GKLIB_RENAME_H_

/* gklib.c - generated from the .o files using the ./utils/listundescapedsumbols.csh */
#define iAllocMatrix libmetis__iAllocMatrix
#define iFreeMatrix libmetis__iFreeMatrix
#define iSetMatrix libmetis__iSetMatrix
#define iargmax libmetis__iargmax
#define iargmax_n libmetis__iargmax_n
#define iargmin libmetis__iargmin
#define iarray2csr libmetis__iarray2csr
#define iaxpy libmetis__iaxpy
#define icopy libmetis__icopy
#define idot libmetis__idot
#define iincset libmetis__iincset
#define ikvAllocMatrix libmetis__ikvAllocMatrix
#define ikvFreeMatrix libmetis__ikvFreeMatrix
#define ikvSetMatrix libmetis__ikvSetMatrix
#define ikvcopy libmetis__ikvcopy
#define ikvmalloc libmetis__ikvmalloc
#define ikvrealloc libmetis__ikvrealloc
#define ikvset libmetis__ikvset
#define ikvsmalloc libmetis__ikvsmalloc
#define ikvsortd libmetis__ikvsortd
#define ikvsorti libmetis__ikvsorti
#define ikvsortii libmetis__ikvsortii
#define imalloc libmetis__imalloc
#define imax libmetis__imax
#define imin libmetis__imin
#define inorm2 libmetis__inorm2
#define ipqCheckHeap libmetis__ipqCheckHeap
#define ipqCreate libmetis__ipqCreate
#define ipqDelete libmetis__ipqDelete
#define ipqDestroy libmetis__ipqDestroy
#define ipqFree libmetis__ipqFree
#define ipqGetTop libmetis__ipqGetTop
#define ipqInit libmetis__ipqInit
#define ipqInsert libmetis__ipqInsert
#define ipqLength libmetis__ipqLength
#define ipqReset libmetis__ipqReset
#define ipqSeeKey libmetis__ipqSeeKey
#define ipqSeeTopKey libmetis__ipqSeeTopKey
#define ipqSeeTopVal libmetis__ipqSeeTopVal
#define ipqUpdate libmetis__ipqUpdate
#define isrand libmetis__isrand
#define irand libmetis__irand
#define irandArrayPermute libmetis__irandArrayPermute
#define irandArrayPermuteFine libmetis__irandArrayPermuteFine
#define irandInRange libmetis__irandInRange
#define irealloc libmetis__irealloc
#define iscale libmetis__iscale
#define iset libmetis__iset
#define ismalloc libmetis__ismalloc
#define isortd libmetis__isortd
#define isorti libmetis__isorti
#define isrand libmetis__isrand
#define isum libmetis__isum
#define rAllocMatrix libmetis__rAllocMatrix
#define rFreeMatrix libmetis__rFreeMatrix
#define rSetMatrix libmetis__rSetMatrix
#define rargmax libmetis__rargmax
#define rargmax_n libmetis__rargmax_n
#define rargmin libmetis__rargmin
#define raxpy libmetis__raxpy
#define rcopy libmetis__rcopy
#define rdot libmetis__rdot
#define rincset libmetis__rincset
#define rkvAllocMatrix libmetis__rkvAllocMatrix
#define rkvFreeMatrix libmetis__rkvFreeMatrix
#define rkvSetMatrix libmetis__rkvSetMatrix
#define rkvcopy libmetis__rkvcopy
#define rkvmalloc libmetis__rkvmalloc
#define rkvrealloc libmetis__rkvrealloc
#define rkvset libmetis__rkvset
#define rkvsmalloc libmetis__rkvsmalloc
#define rkvsortd libmetis__rkvsortd
#define rkvsorti libmetis__rkvsorti
#define rmalloc libmetis__rmalloc
#define rmax libmetis__rmax
#define rmin libmetis__rmin
#define rnorm2 libmetis__rnorm2
#define rpqCheckHeap libmetis__rpqCheckHeap
#define rpqCreate libmetis__rpqCreate
#define rpqDelete libmetis__rpqDelete
#define rpqDestroy libmetis__rpqDestroy
#define rpqFree libmetis__rpqFree
#define rpqGetTop libmetis__rpqGetTop
#define rpqInit libmetis__rpqInit
#define rpqInsert libmetis__rpqInsert
#define rpqLength libmetis__rpqLength
#define rpqReset libmetis__rpqReset
#define rpqSeeKey libmetis__rpqSeeKey
#define rpqSeeTopKey libmetis__rpqSeeTopKey
#define rpqSeeTopVal libmetis__rpqSeeTopVal
#define rpqUpdate libmetis__rpqUpdate
#define rrealloc libmetis__rrealloc
#define rscale libmetis__rscale
#define rset libmetis__rset
#define rsmalloc libmetis__rsmalloc
#define rsortd libmetis__rsortd
#define rsorti libmetis__rsorti
#define rsum libmetis__rsum
#define uvwsorti libmetis__uvwsorti

#endif


