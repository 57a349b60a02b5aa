/** What ffmpeg and ffprobe are allowed to open: an upload's own file, through the demuxers of the containers let in. */

/**
 * The demuxers an upload may be read with: those of the containers the upload check lets in
 * (lectures.service: a video/* type by the first bytes): mov (MP4, MOV, M4V, 3GP), matroska
 * (MKV, WebM), avi, mpeg (program streams), mpegts, flv, ogg and asf (WMV). None of them opens
 * another file.
 */
const UPLOAD_DEMUXERS = ['mov', 'matroska', 'avi', 'mpeg', 'mpegts', 'flv', 'ogg', 'asf'];
/**
 * Given before every input of ffmpeg and ffprobe. They judge a file by its content, not by the
 * first bytes the upload check saw nor by its name: a playlist (HLS, DASH) or a concat list that
 * reached them would have them open every file and URL it names, another lecture's video
 * among them. Only local files (an upload on S3 is downloaded first), and only through the
 * demuxers above; the playlist demuxers, and any reached from inside a container, are refused.
 */
export const INPUT_LIMITS: readonly string[] = ['-protocol_whitelist', 'file', '-format_whitelist', UPLOAD_DEMUXERS.join(',')];
/** `file` as the input of an ffmpeg or ffprobe run: the limits, then `-i`. */
export const input = (file: string) => [...INPUT_LIMITS, '-i', file];
