import { messages } from '@lms/contract/messages';
import { Link } from 'react-router';
import { paths } from '../../app/paths';

export default function HomePage() {
  return (
    <section className="hero min-h-[70vh] px-4">
      <div className="hero-content flex-col text-center">
        <h1 className="text-4xl font-bold sm:text-5xl">
          Find out the best <span className="text-primary">online courses</span>
        </h1>
        <p className="max-w-2xl text-lg">
          We have a large library of courses taught by highly skilled and qualified faculty, at a very affordable cost:
          one monthly bundle opens every course.
        </p>
        <div className="flex flex-wrap justify-center gap-4">
          <Link to={paths.courses} className="btn btn-primary btn-lg">
            {messages.exploreCourses}
          </Link>
          <Link to={paths.contact} className="btn btn-outline btn-lg">
            Contact Us
          </Link>
        </div>
      </div>
    </section>
  );
}
